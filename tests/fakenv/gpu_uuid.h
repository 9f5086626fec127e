// The fake GPU's UUID, which CUDA (cuDeviceGetUuid) and NVML (nvmlDeviceGetUUID) report
// alike. No record states one, so it is made from the GPU's PCI address and name: stable for
// one record, different between records.
#pragma once

#include <array>
#include <string>

#include "fake_record.h"

namespace fakenv {

std::array<unsigned char, 16> GpuUuid(const Record& record);

// GpuUuidText is NVML's form of it: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::string GpuUuidText(const Record& record);

}  // namespace fakenv
