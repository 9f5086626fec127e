// The NVIDIA driver's version, such as "580.159.04". It comes from NVML (libnvidia-ml.so.1), loaded
// at run time like the other NVIDIA libraries.
//
// Why NVML and not /proc/driver/nvidia/version:
// - it is an API with a stated format, not kernel text to parse;
// - nvidia-smi reads it, so operators see the same number;
// - it loads as CUDA, NVDEC and NVENC do, so tests/fakenv's fakes replay it from the same
//   record.
//
// Its cost: a container started without NVIDIA_DRIVER_CAPABILITIES=utility lacks libnvidia-ml.so.1.
// The version is then missing, with a warning that says so.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::probe {

Result<std::string> NvmlDriverVersion();

}  // namespace mc::probe
