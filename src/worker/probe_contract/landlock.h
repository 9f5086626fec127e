// Whether this kernel can box a job's ffmpeg. The job's ffmpeg decodes what an uploader sent,
// so the worker runs it with no new privileges under a Landlock ruleset
// (worker/daemon/ffmpeg_sandbox.h makes it). A kernel without Landlock leaves ffmpeg unboxed,
// beside the worker's secrets, unless the settings require the box, and then `worker run`
// refuses to start. The status document and `worker doctor` say which, so that a cluster owner
// sees it per worker.
#pragma once

#include <string>
#include <string_view>

namespace mc::worker {

// LandlockAbi is the kernel's Landlock ABI version; 0 where it has none or has it disabled.
int LandlockAbi();

// FfmpegSandbox is the box's state on this kernel under the worker's settings.
struct FfmpegSandbox {
  int landlock_abi = 0;
  // Each job's ffmpeg runs under Landlock with no new privileges.
  bool ffmpeg_boxed = false;
  // PT_WORKER_REQUIRE_SANDBOX: without the box `worker run` refuses to start.
  bool required = false;
};

FfmpegSandbox FfmpegSandboxOf(int landlock_abi, bool required);

// SandboxVerdict is the state in a word: "boxed"; "unboxed", where ffmpeg runs without its box
// (a warning); "missing", where the settings require the box and the kernel has none (a
// failure: the worker does not start).
std::string_view SandboxVerdict(const FfmpegSandbox& sandbox);

// SandboxFinding says in words what the verdict means for the jobs, and what to do where it is
// not "boxed".
std::string SandboxFinding(const FfmpegSandbox& sandbox);

}  // namespace mc::worker
