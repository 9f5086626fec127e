// What to do when an NVIDIA GPU cannot encode, for each failure a person meets: the probe's
// refusal, the self-test's gate and its encode step. NVENC's own words name what failed; these
// name the next step.
#pragma once

#include <string>
#include <string_view>

namespace mc::worker {

// The driver's NVENC library is not installed.
inline constexpr std::string_view kInstallNvencLibrary =
    "the NVIDIA driver's NVENC library is not installed: install it (Debian: apt install "
    "libnvidia-encode1 from non-free, the same version as the driver; NVIDIA's installer puts it "
    "beside libcuda.so.1: docs/worker/nvidia-box.md), then run the self-test again";

// The board has no encoder: a compute GPU.
inline constexpr std::string_view kNoNvenc =
    "this board has no NVENC (compute GPUs such as the A100, H100 and H200 have none): it cannot "
    "be a transcoding worker; run the worker on a GPU with NVENC (nvidia-smi -q shows its "
    "Encoder stats) and leave this one out";

// NvencAdvice gives the next step for what NVENC or ffmpeg said (`said`), or an empty string when
// it knows none.
std::string NvencAdvice(std::string_view said);

}  // namespace mc::worker
