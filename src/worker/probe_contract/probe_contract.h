// The worker's probe contract. For one GPU, it says whether the GPU may take transcoding work at
// all. It says what the GPU can do, in the vendor-neutral keys. It is a pure function of what the
// capability pipeline (ProbeGpus) found. So the worker and the published devices cannot disagree.
//
// It fails closed. These give ok=false, with the reason in words:
// - a failed or timed-out query;
// - a missing library;
// - an unknown device;
// - a device of another module than the one asked for;
// - a device that encodes nothing.
// Nothing in it ever concludes that the CPU will do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/capability_keys.h"

namespace mc::worker {

// ContractDevice is one GPU the contract speaks for, as the status document lists it.
struct ContractDevice {
  // The published device name, such as "pci-0000-00-06-0".
  std::string name;
  std::string pci_address;
  // Empty for a GPU reached through NVIDIA's own API with no render node.
  std::string render_node;
  // "nvidia", "intel", "amd" or "unknown".
  std::string vendor;
  // The PCI ID database's product name, or the driver's.
  std::string model;
  // How the driver names itself: the VA vendor string, or the NVIDIA GPU and driver.
  std::string driver;
  // The published driverVersion (NVIDIA). Empty for VA-API.
  std::string driver_version;
  // The kernel driver bound to the GPU, such as "i915" or "nvidia".
  std::string kernel_driver;
  // The PCI vendor and device ids, "10de:2684". Empty for a GPU not on PCI.
  std::string pci_ids;
  // The board maker's PCI subsystem ids, "1043:889d". Empty where sysfs shows none.
  std::string subsystem_ids;

  bool operator==(const ContractDevice&) const = default;
};

struct ProbeContract {
  bool ok = false;
  // The module that answered, as it was asked for ("intel-qsv" stays "intel-qsv").
  std::string probe_module;
  CapabilityFlags capabilities{};
  // Encode sessions the driver allows at once on this GPU. Absent where the driver sets no cap, or
  // the API states none (VA-API).
  std::optional<std::int64_t> max_sessions;
  // The largest picture the GPU's encoders take, from the driver. Absent where the driver did not
  // state it.
  std::optional<std::int64_t> max_width;
  std::optional<std::int64_t> max_height;
  std::vector<ContractDevice> devices;
  // What the answer rests on, in words.
  std::string evidence;
  // Why ok is false, in words. Absent when ok.
  std::optional<std::string> reason;
};

struct ContractRequest {
  // One of:
  // - a device name such as "pci-0000-00-06-0";
  // - a PCI address such as "0000:00:06.0" (any case, a domain of up to eight digits);
  // - a render node path;
  // - the GPU's place in PCI address order ("0").
  std::string gpu;
  // A module name of kProbeModules, or empty to take the device's own.
  std::string module;
};

// ContractFor answers the contract for the one GPU the request names.
ProbeContract ContractFor(const probe::ProbeResult& probe, const ContractRequest& request);

}  // namespace mc::worker
