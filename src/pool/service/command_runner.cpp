#include "pool/service/command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/base/spawn_attributes.h"

extern char** environ;

namespace mc::pool {
namespace {

using Clock = std::chrono::steady_clock;

// Without a pidfd (a kernel older than 5.3) the loop looks for the exit this often.
constexpr std::chrono::milliseconds kExitTick{50};
// Once the command has ended and its group is killed, the pipe's last bytes are read.
// The read lasts at most this long.
// A process that left the group may still hold the pipe open.
constexpr std::chrono::milliseconds kFinalRead{200};

// Environment is the service's environment with `extra` set on top.
std::vector<std::string> Environment(
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> entries;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool replaced = std::any_of(extra.begin(), extra.end(),
                                      [&](const auto& variable) { return variable.first == name; });
    if (!replaced) entries.emplace_back(text);
  }
  for (const auto& [name, value] : extra) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<char*> Pointers(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

// Output keeps the tail of what the command wrote.
class Output {
 public:
  explicit Output(std::size_t max) : max_(max) {}

  void Append(const char* data, std::size_t size) {
    text_.append(data, size);
    // Trimmed in batches, so that a chatty command costs linear time.
    if (text_.size() > 2 * max_ + 8192) Trim();
  }

  void Finish(CommandOutcome& outcome) {
    Trim();
    outcome.output = std::move(text_);
    outcome.truncated = truncated_;
  }

 private:
  void Trim() {
    if (text_.size() <= max_) return;
    text_.erase(0, text_.size() - max_);
    truncated_ = true;
  }

  std::size_t max_;
  std::string text_;
  bool truncated_ = false;
};

// ReadSome reads what the pipe holds now; false at end of file or on an error.
bool ReadSome(int fd, Output& output) {
  char buffer[8192];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      output.Append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

// Exited is whether the child has ended, leaving it unreaped.
// While it is a zombie, its pid cannot be given to another process.
// That pid is its process group's id. So the group can still be killed safely.
bool Exited(pid_t pid) {
  siginfo_t info{};
  int result;
  do {
    result = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (result < 0 && errno == EINTR);
  return result == 0 && info.si_pid == pid;
}

void Reap(pid_t pid, CommandOutcome& outcome) {
  int status = 0;
  pid_t done;
  do {
    done = waitpid(pid, &status, 0);
  } while (done < 0 && errno == EINTR);
  if (done != pid) return;
  if (WIFSIGNALED(status)) {
    outcome.kind = CommandOutcome::Kind::kSignalled;
    outcome.code = WTERMSIG(status);
  } else {
    outcome.kind = CommandOutcome::Kind::kExited;
    outcome.code = WEXITSTATUS(status);
  }
}

// ReadRest reads the pipe until its end of file, for at most kFinalRead.
void ReadRest(int fd, Output& output) {
  const Clock::time_point until = Clock::now() + kFinalRead;
  for (;;) {
    if (!ReadSome(fd, output)) return;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) return;
    pollfd readable{fd, POLLIN, 0};
    if (poll(&readable, 1, static_cast<int>(left.count()) + 1) == 0) return;
  }
}

// Start spawns the command with its stdout and stderr on `out_fd`; the error is errno's.
int Start(const CommandSpec& spec, int out_fd, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDERR_FILENO);
  posix_spawnattr_t attributes;
  InitChildAttributes(attributes);
  const std::vector<std::string> environment = Environment(spec.environment);
  std::vector<char*> argv = Pointers(spec.argv);
  std::vector<char*> envp = Pointers(environment);
  const int error = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return error;
}

}  // namespace

CommandOutcome RunCommand(const CommandSpec& spec) {
  CommandOutcome outcome;
  const Clock::time_point started = Clock::now();
  auto finish = [&](Output& output) {
    output.Finish(outcome);
    outcome.wall = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    return outcome;
  };
  Output output(spec.max_output);
  if (spec.argv.empty() || spec.argv[0].empty()) {
    outcome.code = EINVAL;
    return finish(output);
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    outcome.code = errno;
    return finish(output);
  }
  pid_t pid = -1;
  const int error = Start(spec, pipe_fds[1], pid);
  close(pipe_fds[1]);
  int out_fd = pipe_fds[0];
  if (error != 0) {
    close(out_fd);
    outcome.code = error;
    return finish(output);
  }
  fcntl(out_fd, F_SETFL, fcntl(out_fd, F_GETFL) | O_NONBLOCK);
  const int pid_fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));

  const Clock::time_point deadline = started + spec.deadline;
  bool exited = false;
  bool timed_out = false;
  while (!exited) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd fds[2];
    nfds_t count = 0;
    if (out_fd >= 0) fds[count++] = {out_fd, POLLIN, 0};
    if (pid_fd >= 0) fds[count++] = {pid_fd, POLLIN, 0};
    int wait_ms = static_cast<int>(left.count()) + 1;
    if (pid_fd < 0) wait_ms = std::min<int>(wait_ms, static_cast<int>(kExitTick.count()));
    if (poll(fds, count, wait_ms) < 0 && errno != EINTR) break;
    if (out_fd >= 0 && !ReadSome(out_fd, output)) {
      close(out_fd);
      out_fd = -1;
    }
    exited = Exited(pid);
  }

  // Whether it ended or ran out of time, nothing it started is left running in its group.
  kill(-pid, SIGKILL);
  Reap(pid, outcome);
  if (out_fd >= 0) {
    ReadRest(out_fd, output);
    close(out_fd);
  }
  if (pid_fd >= 0) close(pid_fd);
  if (timed_out) {
    outcome.kind = CommandOutcome::Kind::kTimedOut;
    outcome.code = SIGKILL;
  }
  return finish(output);
}

std::string DescribeOutcome(const CommandOutcome& outcome, const CommandSpec& spec) {
  switch (outcome.kind) {
    case CommandOutcome::Kind::kExited:
      return "exited " + std::to_string(outcome.code);
    case CommandOutcome::Kind::kSignalled:
      return "killed by signal " + std::to_string(outcome.code) + " (" + strsignal(outcome.code) +
             ")";
    case CommandOutcome::Kind::kTimedOut: {
      const auto ms = spec.deadline.count();
      return "killed after its deadline of " +
             (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms");
    }
    case CommandOutcome::Kind::kNotStarted:
      return std::string("not started: ") + std::strerror(outcome.code);
  }
  return "ended in a way the runner does not know";
}

}  // namespace mc::pool
