#include "worker/probe_contract/landlock.h"

#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace mc::worker {
namespace {

// The ABIs that brought TCP rules (Linux 6.7), and the signal and abstract-socket scopes (Linux
// 6.12).
constexpr int kNetworkAbi = 4;
constexpr int kScopesAbi = 6;

}  // namespace

int LandlockAbi() {
  const long abi =
      syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

FfmpegSandbox FfmpegSandboxOf(int landlock_abi, bool required) {
  return {.landlock_abi = landlock_abi, .ffmpeg_boxed = landlock_abi > 0, .required = required};
}

std::vector<std::string> SandboxEnforced(const FfmpegSandbox& sandbox) {
  if (!sandbox.ffmpeg_boxed) return {};
  std::vector<std::string> enforced = {"filesystem"};
  if (sandbox.landlock_abi >= kNetworkAbi) enforced.emplace_back("network");
  if (sandbox.landlock_abi >= kScopesAbi) {
    enforced.emplace_back("signal_scope");
    enforced.emplace_back("abstract_socket_scope");
  }
  enforced.emplace_back("socket_rule");
  return enforced;
}

std::string SandboxReach(const FfmpegSandbox& sandbox) {
  const int abi = sandbox.landlock_abi;
  std::string line = "landlock ABI " + std::to_string(abi) + ": ";
  if (abi < 1) return line + "none: nothing is boxed";
  if (abi >= kScopesAbi) {
    line += "filesystem, network, signal and abstract-socket scopes";
  } else if (abi >= kNetworkAbi) {
    line +=
        "filesystem and network; no signal scope (Linux 6.12 has it): a boxed ffmpeg can "
        "still signal the worker's processes";
  } else {
    line +=
        "filesystem only; no network rule (Linux 6.7) nor signal scope (Linux 6.12): TCP is "
        "refused by the socket rule alone, and a boxed ffmpeg can still signal the "
        "worker's processes";
  }
  return line + "; the socket rule (seccomp) refuses every Unix and IP socket";
}

std::string_view SandboxVerdict(const FfmpegSandbox& sandbox) {
  if (sandbox.ffmpeg_boxed) return "boxed";
  return sandbox.required ? "missing" : "unboxed";
}

std::string SandboxFinding(const FfmpegSandbox& sandbox) {
  if (sandbox.ffmpeg_boxed) {
    return "every ffmpeg and ffprobe that reads an upload runs boxed with no new privileges "
           "and no capabilities, reaching only its job's files, the libraries and the GPU's "
           "device nodes; " +
           SandboxReach(sandbox);
  }
  const std::string no_landlock = "the kernel has no Landlock (or has it turned off)";
  const std::string remedy =
      "a kernel with Landlock (Linux 5.13 or later, landlock in its lsm= list) sandboxes it";
  if (sandbox.required) {
    return no_landlock +
           " and PT_WORKER_REQUIRE_SANDBOX=1 requires ffmpeg's sandbox: worker run refuses to "
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
