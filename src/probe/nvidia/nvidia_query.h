// The NVIDIA query of one GPU: what CUDA, NVDEC and NVENC state about the GPU at a PCI address. It
// goes through NVIDIA's own libraries, loaded at run time. It runs in a child process
// (`query-nvidia PCI`). A driver can hang or crash, and the agent must outlive both.
#pragma once

#include <string>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

struct NvidiaQueryOptions {
  // Run the session-slot test after the query (docs/probe/nvidia.md).
  bool measure_sessions = false;
};

// QueryNvidiaDriver fails, naming the call and its CUresult, when:
// - libcuda or libnvcuvid cannot be loaded;
// - cuInit fails;
// - no CUDA device has the address;
// - a CUDA context or a decoder caps call fails.
//
// The parent then publishes every capability false. NVENC is not required. Without it, the facts
// say the encoder is unavailable and why. A missing driver version (NVML) is a warning.
Result<NvidiaFacts> QueryNvidiaDriver(const std::string& pci_address,
                                      const NvidiaQueryOptions& options = {});

}  // namespace mc::probe
