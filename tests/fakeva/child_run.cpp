#include "child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace mc::fakeva::testing {
namespace {

using Clock = std::chrono::steady_clock;

bool IsUnset(const ChildRun& run, const std::string& name) {
  return std::ranges::any_of(run.unset, [&](const std::string& pattern) {
    if (pattern.ends_with('*'))
      return name.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1));
    return name == pattern;
  });
}

std::vector<std::string> ChildEnvironment(const ChildRun& run) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    const std::string_view variable(*entry);
    const std::string name(variable.substr(0, variable.find('=')));
    if (run.environment.contains(name) || IsUnset(run, name)) continue;
    environment.emplace_back(variable);
  }
  for (const auto& [name, value] : run.environment) environment.push_back(name + "=" + value);
  return environment;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Pipe is one pipe whose ends close themselves; both ends are close-on-exec, so the child
// keeps only what it dup2()s onto its standard descriptors.
struct Pipe {
  int read = -1;
  int write = -1;
  bool Open() {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return false;
    read = ends[0];
    write = ends[1];
    return true;
  }
  void CloseRead() { Close(read); }
  void CloseWrite() { Close(write); }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }

 private:
  static void Close(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// Only async-signal-safe calls run between fork and exec.
[[noreturn]] void BecomeChild(char** argv, char** envp, const Pipe& out, const Pipe& err,
                              const Pipe& exec_status) {
  setpgid(0, 0);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out.write, STDOUT_FILENO);
  dup2(err.write, STDERR_FILENO);
  execve(argv[0], argv, envp);
  const int error = errno;
  (void)!::write(exec_status.write, &error, sizeof error);
  _exit(127);
}

// Drain reads what is ready on `fd` into `text`; false at end of file.
bool Drain(int fd, std::string& text) {
  char buffer[4096];
  const ssize_t got = read(fd, buffer, sizeof buffer);
  if (got > 0) {
    text.append(buffer, static_cast<std::size_t>(got));
    return true;
  }
  return got < 0 && (errno == EINTR || errno == EAGAIN);
}

int MillisecondsUntil(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000));
}

}  // namespace

ChildOutcome RunChild(const ChildRun& run) {
  ChildOutcome outcome;
  if (run.argv.empty()) {
    outcome.error = "no program to run";
    return outcome;
  }
  std::vector<std::string> argv_strings = run.argv;
  std::vector<std::string> env_strings = ChildEnvironment(run);
  std::vector<char*> argv = Pointers(argv_strings);
  std::vector<char*> envp = Pointers(env_strings);

  Pipe out, err, exec_status;
  if (!out.Open() || !err.Open() || !exec_status.Open()) {
    outcome.error = std::string("pipe2: ") + std::strerror(errno);
    return outcome;
  }
  const Clock::time_point deadline = Clock::now() + run.deadline;
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.error = std::string("fork: ") + std::strerror(errno);
    return outcome;
  }
  if (pid == 0) BecomeChild(argv.data(), envp.data(), out, err, exec_status);

  out.CloseWrite();
  err.CloseWrite();
  exec_status.CloseWrite();
  int exec_error = 0;
  if (read(exec_status.read, &exec_error, sizeof exec_error) ==
      static_cast<ssize_t>(sizeof exec_error)) {
    outcome.error = "cannot run " + run.argv[0] + ": " + std::strerror(exec_error);
  } else {
    outcome.started = true;
  }

  bool out_open = true, err_open = true;
  while ((out_open || err_open) && Clock::now() < deadline) {
    pollfd fds[2] = {{out_open ? out.read : -1, POLLIN, 0}, {err_open ? err.read : -1, POLLIN, 0}};
    if (poll(fds, 2, MillisecondsUntil(deadline)) < 0 && errno != EINTR) break;
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
      out_open = Drain(out.read, outcome.out);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
      err_open = Drain(err.read, outcome.err);
  }

  int status = 0;
  pid_t reaped = 0;
  while ((reaped = waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (reaped == 0) {
    outcome.timed_out = true;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    reaped = waitpid(pid, &status, 0);
  }
  if (reaped == pid) {
    if (WIFEXITED(status)) {
      outcome.exited = true;
      outcome.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      outcome.signal = WTERMSIG(status);
    }
  }
  return outcome;
}

std::string Describe(const ChildOutcome& outcome) {
  std::string text;
  if (!outcome.started)
    text = "not started (" + outcome.error + ")";
  else if (outcome.timed_out)
    text = "killed at its deadline";
  else if (outcome.exited)
    text = "exited with " + std::to_string(outcome.exit_code);
  else
    text = "ended by signal " + std::to_string(outcome.signal) + " (" + strsignal(outcome.signal) +
           ")";
  return text + "\n--- stdout:\n" + outcome.out + "--- stderr:\n" + outcome.err;
}

}  // namespace mc::fakeva::testing
