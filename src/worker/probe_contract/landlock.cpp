#include "worker/probe_contract/landlock.h"

#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace mc::worker {

int LandlockAbi() {
  const long abi =
      syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

FfmpegSandbox FfmpegSandboxOf(int landlock_abi, bool required) {
  return {.landlock_abi = landlock_abi, .ffmpeg_boxed = landlock_abi > 0, .required = required};
}

std::string_view SandboxVerdict(const FfmpegSandbox& sandbox) {
  if (sandbox.ffmpeg_boxed) return "boxed";
  return sandbox.required ? "missing" : "unboxed";
}

std::string SandboxFinding(const FfmpegSandbox& sandbox) {
  if (sandbox.ffmpeg_boxed) {
    return "each job's ffmpeg runs under Landlock (ABI " + std::to_string(sandbox.landlock_abi) +
           ") with no new privileges, reaching only its job's files, the libraries and the GPU's "
           "device nodes";
  }
  const std::string no_landlock = "the kernel has no Landlock (or has it turned off)";
  const std::string remedy =
      "a kernel with Landlock (Linux 5.13 or later, landlock in its lsm= list) boxes it";
  if (sandbox.required) {
    return no_landlock +
           " and PT_WORKER_REQUIRE_SANDBOX=1 requires ffmpeg's box: worker run refuses to "
           "start; " +
           remedy;
  }
  return no_landlock +
         ": each job's ffmpeg decodes uploads unboxed, beside the worker's secrets (the "
         "runner's token, its jobs' tokens, the worker's state); PT_WORKER_REQUIRE_SANDBOX=1 "
         "refuses that, and " +
         remedy;
}

}  // namespace mc::worker
