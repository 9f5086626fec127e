// NVML is asked in a forked child with a deadline, as every driver call of the project is:
// on a GPU in a bad state nvmlInit can hang, and the doctor must still print its report.
#pragma once

#include <chrono>
#include <string>

#include "common/base/result.h"

namespace mc::dra {

// AskNvml runs the project's NVML reader (src/probe/nvidia/nvml_driver_version.h) in a child and
// gives the driver's version, or why NVML did not answer. The caller must have one thread.
Result<std::string> AskNvml(std::chrono::milliseconds deadline);

}  // namespace mc::dra
