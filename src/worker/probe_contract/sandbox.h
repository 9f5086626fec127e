// The sandbox every program that reads an upload runs in. That is ffmpeg and ffprobe, for a job,
// for the runner's own probes and listings, and for the self-test. The sandbox:
// - sets no new privileges;
// - drops every capability (a worker run as root boxes a root ffmpeg);
// - enters a Landlock ruleset that grants the system's files and the paths named here alone.
// Where the kernel has them, Landlock also refuses:
// - TCP (ABI 4);
// - signals and abstract sockets beyond the sandbox (ABI 6).
// A seccomp rule refuses Unix and IP sockets on every kernel. Landlock does not cover connect() to
// a path-named socket. The worker's and the runner's sockets must stay out of reach.
// worker/daemon/ffmpeg_sandbox.h says which paths a job's run gets.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

// What a boxed program may open beyond the system's files.
struct SandboxPaths {
  std::vector<std::string> read;  // files and folders, read and run
  // Files it reads, writes and truncates. It never creates, lists or removes files beside them.
  // These are a job's own outputs, made by the wrapper before the sandbox.
  std::vector<std::string> write_files;
  std::vector<std::string> read_write;  // folders it also creates, writes and removes files in
  // The admin's folders. It may also make symbolic links there (a driver's state may hold them). A
  // job's outputs never get that right. The runner reads what ffmpeg leaves, and a link could point
  // it at a file outside the sandbox.
  std::vector<std::string> admin;
};

// The environment a sandbox's paths come from. Each is colon-separated:
// - the program;
// - the dynamic loader's and libva's search paths;
// - the folders an admin lets ffmpeg write (PT_WORKER_SANDBOX_PATHS): a driver's cache, a fake
//   driver's state.
struct SandboxEnvironment {
  std::string ffmpeg;  // the program
  std::string library_path;
  std::string va_drivers_path;
  std::string extra_paths;
};

// AddEnvironmentPaths adds the folders to read: the program's, the loader's and libva's. It adds
// the admin's folders too.
void AddEnvironmentPaths(const SandboxEnvironment& environment, SandboxPaths& paths);

// Sandbox is a Landlock ruleset made before the fork. The child enters it before exec.
class Sandbox {
 public:
  // Make opens every path that exists and adds its rule. The system's paths come with it.
  // Unsupported when the kernel has no Landlock.
  static Result<Sandbox> Make(const SandboxPaths& paths);
  Sandbox(Sandbox&& other) noexcept : ruleset_(other.ruleset_) { other.ruleset_ = -1; }
  Sandbox& operator=(Sandbox&&) = delete;
  ~Sandbox();

  // Enter restricts the calling thread for good: no new privileges, no capabilities, the Landlock
  // ruleset and the socket rule. It makes only system calls, so a forked child may call it. False
  // when the kernel refused.
  bool Enter() const;

  // RunEntered runs `work` on a thread of its own that has entered the sandbox. What the work
  // spawns starts boxed. The caller stays outside. False when the kernel refused.
  bool RunEntered(const std::function<void()>& work) const;

 private:
  explicit Sandbox(int ruleset) : ruleset_(ruleset) {}
  int ruleset_;
};

}  // namespace mc::worker
