#include "worker/daemon/runner_supervisor.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> EnvironmentWith(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    if (!extra.contains(name)) entries.push_back(text);
  }
  for (const auto& [name, value] : extra) entries.push_back(name + "=" + value);
  return entries;
}

std::string ExitText(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by ") + strsignal(WTERMSIG(status));
  return "ended";
}

}  // namespace

RunnerSupervisor::RunnerSupervisor(RunnerOptions options) : options_(std::move(options)) {
  thread_ = std::thread([this] { Loop(); });
}

RunnerSupervisor::~RunnerSupervisor() { Stop(); }

int RunnerSupervisor::pid() const {
  const std::lock_guard lock(mutex_);
  return pid_;
}

int RunnerSupervisor::starts() const {
  const std::lock_guard lock(mutex_);
  return starts_;
}

int RunnerSupervisor::Spawn() {
  std::vector<std::string> argv = options_.command;
  argv.insert(argv.end(), {"--id", options_.id, "server"});
  std::vector<char*> args;
  for (std::string& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);
  std::vector<std::string> environment = EnvironmentWith(options_.environment);
  std::vector<char*> env;
  for (std::string& entry : environment) env.push_back(entry.data());
  env.push_back(nullptr);
  const std::string log = options_.log_path.empty() ? "/dev/null" : options_.log_path;
  const pid_t parent = getpid();
  // fork rather than posix_spawn: only the child can ask to die with the worker. A killed worker
  // then takes its runner with it. That aborts its jobs, so PeerTube puts them back at once. No
  // runner is left that no one supervises.
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);
    // A session of its own. It and its ffmpeg children are then one group to stop. A terminal's
    // signals to the worker do not reach it behind the worker's back. The worker's threads block
    // SIGTERM. The runner must not inherit that.
    setsid();
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (in < 0 || out < 0) _exit(127);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    if (!options_.working_dir.empty() && chdir(options_.working_dir.c_str()) != 0) _exit(127);
    execvpe(args[0], args.data(), env.data());
    const std::string line = "runner: cannot start " + argv[0] + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, line.data(), line.size());
    _exit(127);
  }
  if (pid < 0) {
    options_.log("runner: cannot fork: " + std::string(std::strerror(errno)));
    return 0;
  }
  return pid;
}

void RunnerSupervisor::Loop() {
  std::chrono::milliseconds pause = options_.first_pause;
  while (true) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return;
      spawning_ = true;
    }
    for (const std::string& file : options_.stale_files) unlink(file.c_str());
    options_.starting();
    const int pid = Spawn();
    const Clock::time_point started = Clock::now();
    {
      // A Stop that came during the spawn waits for this: it then sees the new runner's pid and
      // stops it. Without the wait it saw no runner, signalled none, and waited on one that
      // nothing would end.
      const std::lock_guard lock(mutex_);
      spawning_ = false;
      if (pid > 0) {
        pid_ = pid;
        ++starts_;
      }
    }
    changed_.notify_all();
    if (pid > 0) {
      options_.log("runner: started " + options_.id + " (pid " + std::to_string(pid) + ")");
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      // What the runner leaves of its session goes with it, such as an ffmpeg it did not stop. The
      // wrapper also dies with its parent; this is the second line.
      kill(-pid, SIGKILL);
      {
        const std::lock_guard lock(mutex_);
        pid_ = 0;
        if (stopping_) {
          changed_.notify_all();
          return;
        }
      }
      options_.log("runner: " + options_.id + " " + ExitText(status));
      options_.ended();
    }
    if (Clock::now() - started >= options_.healthy_after) pause = options_.first_pause;
    options_.log("runner: restarting " + options_.id + " in " + std::to_string(pause.count()) +
                 " ms");
    std::unique_lock lock(mutex_);
    if (changed_.wait_for(lock, pause, [this] { return stopping_; })) return;
    pause = std::min(pause * 2, options_.most_pause);
  }
}

void RunnerSupervisor::Stop(std::chrono::milliseconds grace) {
  int pid = 0;
  {
    std::unique_lock lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
    // A spawn under way ends in a moment with a pid to stop.
    changed_.wait(lock, [this] { return !spawning_; });
    pid = pid_;
  }
  changed_.notify_all();
  if (pid > 0) {
    kill(pid, SIGTERM);
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, grace, [this] { return pid_ == 0; })) {
      lock.unlock();
      kill(-pid, SIGKILL);
    }
  }
  if (thread_.joinable()) thread_.join();
}

}  // namespace mc::worker
