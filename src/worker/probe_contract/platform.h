// Where the worker runs is part of the truth about its GPU. On WSL2 the GPU is shared with the
// Windows host. NVML is reduced there, and there is no /dev/dri. So WSL2 is a development platform.
// It is never a production worker, unless the operator says so (PT_WORKER_ALLOW_WSL2).
#pragma once

#include <string>

namespace mc::worker {

struct PlatformRoots {
  std::string dev = "/dev";
  std::string proc = "/proc";
};

struct Platform {
  bool wsl2 = false;
  // What showed it, or that nothing did:
  //    "/dev/dxg exists; the kernel is 5.15.167.4-microsoft-standard-WSL2"
  std::string evidence;
  // The kernel release, from proc's sys/kernel/osrelease.
  std::string kernel;
};

// DetectPlatform looks for WSL2's GPU paravirtualisation device (/dev/dxg) and a Microsoft kernel.
// Either is enough.
Platform DetectPlatform(const PlatformRoots& roots);

}  // namespace mc::worker
