// ffmpeg in a box: the job's ffmpeg decodes what an uploader sent, so it runs with no new
// privileges and under a Landlock ruleset that lets it read the system's files, the job's
// inputs and the GPU's device nodes, and write only the job's output folders. It cannot open
// the worker's state directory, the tokens or the runner's configuration, and Landlock keeps
// it from tracing the processes outside its box. Whether the kernel has Landlock at all
// (LandlockAbi) is in worker/probe_contract/landlock.h, which the status document reads too.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "worker/transcode/runner_command.h"

namespace mc::worker {

// What ffmpeg may open beyond the system's files (kept as data in ffmpeg_sandbox.cpp).
struct SandboxPaths {
  std::vector<std::string> read;        // files and folders, read and run
  std::vector<std::string> read_write;  // folders it also creates, writes and removes files in
  // The admin's folders, where ffmpeg may also make symbolic links (a driver's state may hold
  // them). A job's output folder never gets that right: the runner reads what ffmpeg leaves
  // there, and a link could point it at a file outside the box.
  std::vector<std::string> admin;
};

// The environment the paths come from: the dynamic loader's and libva's search paths, and
// folders an admin lets ffmpeg write (PT_WORKER_SANDBOX_PATHS: a driver's cache, a stand-in
// driver's state), each colon-separated.
struct SandboxEnvironment {
  std::string ffmpeg;  // the program
  std::string library_path;
  std::string va_drivers_path;
  std::string extra_paths;
};

// JobSandboxPaths gives the job's paths: each local input's folder to read, each output's
// folder to write, the program's folder and the loader's and libva's folders to read, and the
// admin's folders.
SandboxPaths JobSandboxPaths(const RunnerCommand& command, const SandboxEnvironment& environment);

// Sandbox is a Landlock ruleset made before the fork; the child enters it before exec.
class Sandbox {
 public:
  // Make opens every path that exists and adds its rule; the system's paths come with it.
  // Unsupported when the kernel has no Landlock.
  static Result<Sandbox> Make(const SandboxPaths& paths);
  Sandbox(Sandbox&& other) noexcept : ruleset_(other.ruleset_) { other.ruleset_ = -1; }
  Sandbox& operator=(Sandbox&&) = delete;
  ~Sandbox();

  // Enter sets no_new_privs and restricts the calling process to the ruleset, for good; it
  // makes only system calls, so a forked child may call it. False when the kernel refused.
  bool Enter() const;

 private:
  explicit Sandbox(int ruleset) : ruleset_(ruleset) {}
  int ruleset_;
};

}  // namespace mc::worker
