#include "worker/daemon/capture.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;

// Spawn starts argv with its stdout on `out`, in the sandbox where one is given.
int Spawn(const std::vector<std::string>& argv, int out, const Sandbox* sandbox, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  int spawned = EPERM;
  const auto spawn = [&] {
    spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  };
  if (sandbox == nullptr) {
    spawn();
  } else if (!sandbox->RunEntered(spawn)) {
    spawned = EPERM;
  }
  posix_spawn_file_actions_destroy(&actions);
  return spawned;
}

// Reads the child's output until it closes it, the deadline passes or the cap is passed. The error
// names the limit.
Result<std::string> ReadOutput(int from, const std::string& program,
                               const CaptureOptions& options) {
  const Clock::time_point until = Clock::now() + options.deadline;
  std::string text;
  char buffer[8192];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) {
      return Unavailable(program + " ran past its deadline of " +
                         std::to_string(options.deadline.count()) + " ms and was killed");
    }
    pollfd wait{.fd = from, .events = POLLIN, .revents = 0};
    const int ready = poll(&wait, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) return Internal(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    const ssize_t got = read(from, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > options.max_output) {
      return Unavailable(program + " wrote more than " + std::to_string(options.max_output) +
                         " bytes and was killed");
    }
  }
}

}  // namespace

Result<std::string> CaptureOutput(const std::vector<std::string>& argv,
                                  const CaptureOptions& options) {
  if (argv.empty()) return InvalidInput("no program to run");
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return Internal(std::string("a pipe: ") + std::strerror(errno));
  pid_t pid = 0;
  const int spawned = Spawn(argv, out[1], options.sandbox, pid);
  close(out[1]);
  if (spawned != 0) {
    close(out[0]);
    return Unavailable("cannot run " + argv[0] + (options.sandbox ? " in its sandbox: " : ": ") +
                       std::strerror(spawned));
  }
  const Clock::time_point until = Clock::now() + options.deadline;
  Result<std::string> text = ReadOutput(out[0], argv[0], options);
  close(out[0]);
  // A child that closed its output may still run. It has what is left of the deadline.
  int status = 0;
  bool exited = false;
  while (text && !exited && Clock::now() < until) {
    const pid_t waited = waitpid(pid, &status, WNOHANG);
    exited = waited == pid || (waited < 0 && errno != EINTR);
    if (!exited) usleep(5000);
  }
  if (!exited) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!text) return text;
  if (!exited) {
    return Unavailable(argv[0] + " ran past its deadline of " +
                       std::to_string(options.deadline.count()) + " ms and was killed");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Unavailable(argv[0] + " failed on " + argv.back());
  return text;
}

}  // namespace mc::worker
