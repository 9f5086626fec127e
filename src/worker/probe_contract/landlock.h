// Whether this kernel can sandbox a job's ffmpeg. The job's ffmpeg decodes what an uploader sent.
// So the worker runs it with no new privileges under a Landlock ruleset.
// worker/daemon/ffmpeg_sandbox.h makes it. A kernel without Landlock leaves ffmpeg unboxed, beside
// the worker's secrets. If the settings require the sandbox, `worker run` refuses to start instead.
// The status document and `worker doctor` say which. So a cluster owner sees it per worker.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mc::worker {

// LandlockAbi is the kernel's Landlock ABI version. 0 where it has none or has it disabled.
int LandlockAbi();

// FfmpegSandbox is the sandbox's state on this kernel under the worker's settings.
struct FfmpegSandbox {
  int landlock_abi = 0;
  // Each job's ffmpeg runs under Landlock with no new privileges.
  bool ffmpeg_boxed = false;
  // PT_WORKER_REQUIRE_SANDBOX: without the sandbox, `worker run` refuses to start.
  bool required = false;
};

FfmpegSandbox FfmpegSandboxOf(int landlock_abi, bool required);

// SandboxEnforced names what the sandbox enforces on a kernel of this ABI. It uses the status
// document's words:
// - "filesystem" (ABI 1);
// - "network": no TCP (ABI 4);
// - "signal_scope" and "abstract_socket_scope" (ABI 6);
// - "socket_rule": no Unix or IP socket, by seccomp, with any ABI.
// Empty where ffmpeg runs unboxed.
std::vector<std::string> SandboxEnforced(const FfmpegSandbox& sandbox);

// SandboxReach says the same in a line for people, and what a missing part means:
//    "landlock ABI 7: filesystem, network, signal and abstract-socket scopes; ..."
std::string SandboxReach(const FfmpegSandbox& sandbox);

// SandboxVerdict is the state in a word:
// - "boxed";
// - "unboxed", where ffmpeg runs without its sandbox (a warning);
// - "missing", where the settings require the sandbox and the kernel has none. That is a
//   failure: the worker does not start.
std::string_view SandboxVerdict(const FfmpegSandbox& sandbox);

// SandboxFinding says in words what the verdict means for the jobs. Where it is not "boxed", it
// says what to do.
std::string SandboxFinding(const FfmpegSandbox& sandbox);

}  // namespace mc::worker
