// The device builder. It turns a GPU's identity and what its driver stated (or why it could
// not say) into the device published for it. The probe and the publisher both use it. So
// what `probe --output json` prints is what a ResourceSlice holds.
#pragma once

#include "common/base/result.h"
#include "probe/devices/device.h"
#include "probe/facts/nvidia_facts.h"
#include "probe/facts/va_facts.h"
#include "probe/gpu/gpu.h"

namespace mc::probe {

// The API's limit on a string attribute's length, in bytes.
inline constexpr std::size_t kMaxAttributeStringBytes = 64;

// The API's limit on attributes and capacities of one device, together.
inline constexpr std::size_t kMaxAttributesAndCapacities = 32;

// The standard attribute that pairs two drivers' devices of one PCI device.
inline constexpr char kPciBusIdAttribute[] = "resource.kubernetes.io/pciBusID";

// BuildVaDevice publishes every capability the facts support as true and every other as
// false. A failed query publishes them all as false and no vaDriver.
Device BuildVaDevice(const Gpu& gpu, const Result<VaFacts>& facts);

// BuildNvidiaDevice does the same from what CUDA, NVDEC and NVENC stated. It adds:
//  - api "nvidia";
//  - the driver's version as driverVersion;
//  - the encodeSessions capacity, where the driver caps sessions and the GPU can encode.
// The consumer cap holds for the whole system. So capped_gpus_on_node, the number of the
// node's GPUs under that cap, divides it.
// A failed query publishes every capability false, no driverVersion and no capacity. The
// name is the PCI ID database's, or CUDA's when the database has none.
Device BuildNvidiaDevice(const Gpu& gpu, const Result<NvidiaFacts>& facts,
                         std::size_t capped_gpus_on_node = 1);

}  // namespace mc::probe
