// The NVIDIA driver's version, such as "580.159.04", from NVML (libnvidia-ml.so.1, loaded
// at run time like the other NVIDIA libraries).
//
// NVML rather than /proc/driver/nvidia/version: it is an API with a stated format, not a
// line of kernel text to parse; it is the library nvidia-smi reads, so the number is the
// one operators see; and it is loaded the same way as CUDA, NVDEC and NVENC, so that the
// stand-in libraries of tests/fakenv replay it from the same record. Its cost: a container
// started without NVIDIA_DRIVER_CAPABILITIES=utility has no libnvidia-ml.so.1, and the
// version is then missing, with a warning that says so.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::probe {

Result<std::string> NvmlDriverVersion();

}  // namespace mc::probe
