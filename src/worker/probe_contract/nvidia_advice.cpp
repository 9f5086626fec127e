#include "worker/probe_contract/nvidia_advice.h"

namespace mc::worker {

std::string NvencAdvice(std::string_view said) {
  // NVENC's status by name (the probe), and as ffmpeg's h264_nvenc words it.
  if (said.find("NV_ENC_ERR_UNSUPPORTED_DEVICE") != std::string_view::npos ||
      said.find("unsupported device") != std::string_view::npos)
    return std::string(kNoNvenc);
  if (said.find("libnvidia-encode.so") != std::string_view::npos)
    return std::string(kInstallNvencLibrary);
  return "";
}

}  // namespace mc::worker
