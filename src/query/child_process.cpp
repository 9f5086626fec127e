#include "query/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

extern char** environ;

namespace mc {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
  bool exited = false;
};

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Spawn starts one child with its stdout and stderr on fresh pipes, in a process group of
// its own so that a kill reaches whatever it started too.
ChildOutcome Spawn(const std::vector<std::string>& command, Running& running) {
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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);

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

// Drain reads what is available on fd into text; it closes fd at end of file.
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

void Reap(Running& running, ChildOutcome& outcome, bool killed) {
  int status = 0;
  while (waitpid(running.pid, &status, 0) < 0 && errno == EINTR) {
  }
  running.exited = true;
  if (killed) {
    outcome.kind = ChildOutcome::Kind::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::kSignalled;
    outcome.code = WTERMSIG(status);
  } else {
    outcome.kind = ChildOutcome::Kind::kExited;
    outcome.code = WEXITSTATUS(status);
  }
}

}  // namespace

std::vector<ChildOutcome> RunChildren(const std::vector<std::vector<std::string>>& commands,
                                      std::chrono::milliseconds timeout, std::size_t max_output) {
  std::vector<ChildOutcome> outcomes(commands.size());
  std::vector<Running> running(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) outcomes[i] = Spawn(commands[i], running[i]);

  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, bool>> owners;  // child index, is stdout
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (running[i].out_fd >= 0) {
        fds.push_back({running[i].out_fd, POLLIN, 0});
        owners.emplace_back(i, true);
      }
      if (running[i].err_fd >= 0) {
        fds.push_back({running[i].err_fd, POLLIN, 0});
        owners.emplace_back(i, false);
      }
    }
    if (fds.empty()) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    const int ready = poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      auto [i, is_out] = owners[k];
      Drain(is_out ? running[i].out_fd : running[i].err_fd,
            is_out ? outcomes[i].out : outcomes[i].err, max_output);
    }
  }

  // A child whose pipes are closed has exited or is about to; one that still holds a pipe
  // at the deadline is killed. A child that closed its pipes but lingers (it daemonised its
  // work, say) is killed at the deadline too, rather than waited on for ever.
  for (std::size_t i = 0; i < running.size(); ++i) {
    if (running[i].pid < 0) continue;
    bool killed = false;
    if (running[i].out_fd >= 0 || running[i].err_fd >= 0) {
      kill(-running[i].pid, SIGKILL);
      killed = true;
    } else {
      int status = 0;
      for (;;) {
        const pid_t done = waitpid(running[i].pid, &status, WNOHANG);
        if (done == running[i].pid) {
          running[i].exited = true;
          if (WIFSIGNALED(status)) {
            outcomes[i].kind = ChildOutcome::Kind::kSignalled;
            outcomes[i].code = WTERMSIG(status);
          } else {
            outcomes[i].kind = ChildOutcome::Kind::kExited;
            outcomes[i].code = WEXITSTATUS(status);
          }
          break;
        }
        if (Clock::now() >= deadline) {
          kill(-running[i].pid, SIGKILL);
          killed = true;
          break;
        }
        usleep(1000);
      }
    }
    if (!running[i].exited) Reap(running[i], outcomes[i], killed);
    CloseFd(running[i].out_fd);
    CloseFd(running[i].err_fd);
  }
  return outcomes;
}

}  // namespace mc
