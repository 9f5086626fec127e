// NVML is asked in a forked child with a deadline, like every driver call here.
// On a GPU in a bad state nvmlInit can hang.
// The doctor must still print its report.
#pragma once

#include <chrono>
#include <string>

#include "common/base/result.h"

namespace mc::dra {

// AskNvml runs the project's NVML reader in a child.
// The reader is src/probe/nvidia/nvml_driver_version.h.
// It gives the driver's version, or why NVML did not answer.
// The caller must have one thread.
Result<std::string> AskNvml(std::chrono::milliseconds deadline);

}  // namespace mc::dra
