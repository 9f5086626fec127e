#include "probe/query/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>

#include "common/base/spawn_attributes.h"

extern char** environ;

namespace mc::probe {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  pid_t pid = -1;
  // A pidfd becomes readable when the child exits. So one poll waits for exits and output alike,
  // with no timer.
  int pid_fd = -1;
  int out_fd = -1;
  int err_fd = -1;
  bool exited = false;
};

// PidFd opens a pidfd for the child. It gives -1 on a kernel older than 5.3. The loop then waits
// for such a child once its pipes close. glibc 2.36's header lacks the C linkage its wrapper needs
// from C++. So the system call is made directly.
int PidFd(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Fork runs `run` in a forked child, stdout and stderr on the pipes. The child has a process group
// of its own, like a started child. It dies with its parent. So a batch that is itself killed
// leaves no query behind.
ChildOutcome Fork(const std::function<int()>& run, int out_pipe[2], int err_pipe[2],
                  Running& running) {
  ChildOutcome outcome;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // A started program begins with every signal at its default action and none blocked. A forked
    // one inherits its parent's handlers: a sanitizer's, a daemon's SIGTERM. So they are reset
    // here. A driver that crashes dies of its signal either way.
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
      if (signal_number != SIGKILL && signal_number != SIGSTOP) std::signal(signal_number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    std::fflush(nullptr);
    _exit(run());
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    outcome.code = errno;
    close(out_pipe[0]);
    close(err_pipe[0]);
    return outcome;
  }
  running.pid = pid;
  running.out_fd = out_pipe[0];
  running.err_fd = err_pipe[0];
  outcome.kind = ChildOutcome::Kind::kExited;
  return outcome;
}

// Spawn starts one child with its stdout and stderr on fresh pipes. It gets a process group of its
// own. So a kill reaches whatever it started too.
ChildOutcome Spawn(const ChildSpec& child, Running& running) {
  ChildOutcome outcome;
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    outcome.code = errno;
    return outcome;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    outcome.code = errno;
    close(out_pipe[0]);
    close(out_pipe[1]);
    return outcome;
  }
  if (child.run) return Fork(child.run, out_pipe, err_pipe, running);
  const std::vector<std::string>& command = child.argv;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attributes;
  InitChildAttributes(attributes);

  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const int error = posix_spawn(&running.pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (error != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    running.pid = -1;
    outcome.code = error;
    return outcome;
  }
  running.out_fd = out_pipe[0];
  running.err_fd = err_pipe[0];
  outcome.kind = ChildOutcome::Kind::kExited;
  return outcome;
}

// Drain reads what fd has into text. It closes fd at end of file.
void Drain(int& fd, std::string& text, std::size_t max_output) {
  char buffer[8192];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  if (n > 0) {
    const std::size_t room = max_output - std::min(max_output, text.size());
    text.append(buffer, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    CloseFd(fd);
  }
}

void RecordStatus(int status, ChildOutcome& outcome) {
  if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::kSignalled;
    outcome.code = WTERMSIG(status);
  } else {
    outcome.kind = ChildOutcome::Kind::kExited;
    outcome.code = WEXITSTATUS(status);
  }
}

// Reap collects an exited child's status. `block` waits for one just killed.
void Reap(Running& running, ChildOutcome& outcome, bool block) {
  int status = 0;
  pid_t done;
  do {
    done = waitpid(running.pid, &status, block ? 0 : WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done != running.pid) return;
  running.exited = true;
  CloseFd(running.pid_fd);
  RecordStatus(status, outcome);
}

}  // namespace

std::vector<ChildOutcome> RunChildren(const std::vector<std::vector<std::string>>& commands,
                                      std::chrono::milliseconds timeout, std::size_t max_output) {
  std::vector<ChildSpec> children;
  for (const auto& argv : commands) children.push_back({argv, {}});
  return RunChildren(children, timeout, max_output);
}

std::vector<ChildOutcome> RunChildren(const std::vector<ChildSpec>& children,
                                      std::chrono::milliseconds timeout, std::size_t max_output) {
  std::vector<ChildOutcome> outcomes(children.size());
  std::vector<Running> running(children.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    outcomes[i] = Spawn(children[i], running[i]);
    if (running[i].pid > 0) running[i].pid_fd = PidFd(running[i].pid);
  }

  // A child is done once it exited and both pipes are at end of file.
  enum class Source { kOut, kErr, kExit };
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, Source>> owners;
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (running[i].pid > 0 && !running[i].exited && running[i].pid_fd < 0 &&
          running[i].out_fd < 0 && running[i].err_fd < 0) {
        Reap(running[i], outcomes[i], /*block=*/true);
      }
      const std::pair<int, Source> watched[] = {{running[i].out_fd, Source::kOut},
                                                {running[i].err_fd, Source::kErr},
                                                {running[i].pid_fd, Source::kExit}};
      for (auto [fd, source] : watched) {
        if (fd < 0) continue;
        fds.push_back({fd, POLLIN, 0});
        owners.emplace_back(i, source);
      }
    }
    if (fds.empty()) break;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(left.count()) + 1);
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      auto [i, source] = owners[k];
      if (source == Source::kExit) {
        Reap(running[i], outcomes[i], /*block=*/false);
      } else {
        Drain(source == Source::kOut ? running[i].out_fd : running[i].err_fd,
              source == Source::kOut ? outcomes[i].out : outcomes[i].err, max_output);
      }
    }
  }

  // At the deadline, kill with its whole process group a child that:
  // - has not exited; or
  // - has pipes that something it started still holds.
  for (std::size_t i = 0; i < running.size(); ++i) {
    if (running[i].pid < 0) continue;
    const bool unfinished = !running[i].exited || running[i].out_fd >= 0 || running[i].err_fd >= 0;
    if (unfinished) kill(-running[i].pid, SIGKILL);
    if (!running[i].exited) Reap(running[i], outcomes[i], /*block=*/true);
    if (unfinished) outcomes[i].kind = ChildOutcome::Kind::kTimedOut;
    CloseFd(running[i].out_fd);
    CloseFd(running[i].err_fd);
    CloseFd(running[i].pid_fd);
  }
  return outcomes;
}

}  // namespace mc::probe
