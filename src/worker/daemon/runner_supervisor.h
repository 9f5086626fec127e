// RunnerSupervisor keeps the official PeerTube runner running as the worker's child. It starts it
// in a session of its own. It restarts it with a growing pause when it dies. It stops it on
// request. The runner has no pause of its own. The worker pauses it at the admission gate instead.
// So the runner is only stopped when the worker itself stops.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mc::worker {

struct RunnerOptions {
  // The runner's command line up to its own arguments. That is {"peertube-runner"} as npm installs
  // it, or {"node", ".../peertube-runner.js"}.
  std::vector<std::string> command;
  // The runner's --id. Its configuration, socket and work directory are named after it.
  std::string id;
  // Where it runs. Its log is appended to `log_path`.
  std::string working_dir;
  std::string log_path;
  // Variables set on top of the worker's own environment.
  std::map<std::string, std::string> environment;
  // The pause after the first death. It doubles after each quick death, up to the most. A run that
  // lasted `healthy_after` starts the pause from the beginning again.
  std::chrono::milliseconds first_pause{1000};
  std::chrono::milliseconds most_pause{60000};
  std::chrono::milliseconds healthy_after{60000};
  std::function<void(const std::string&)> log = [](const std::string&) {};
  // Files a dead runner leaves that stop the next one. That is its IPC socket. A runner killed with
  // SIGKILL cannot remove it. The next runner's start then hangs on it.
  std::vector<std::string> stale_files;
  // Told each time the runner has ended, before it is started again. The jobs it ran died with it.
  std::function<void()> ended = [] {};
  // Told just before each start, once the supervisor has seen it is not stopping. A stop may come
  // from then until the runner runs; tests stop it there.
  std::function<void()> starting = [] {};
};

class RunnerSupervisor {
 public:
  explicit RunnerSupervisor(RunnerOptions options);
  // Stops the runner (Stop) if it still runs.
  ~RunnerSupervisor();
  RunnerSupervisor(const RunnerSupervisor&) = delete;
  RunnerSupervisor& operator=(const RunnerSupervisor&) = delete;

  // The runner's pid now, or 0 between two runs.
  int pid() const;
  // How many times it was started.
  int starts() const;
  // Stop sends SIGTERM, waits up to `grace`, then kills what is left of its session. On SIGTERM the
  // runner aborts what it still runs. So the caller drains first.
  void Stop(std::chrono::milliseconds grace = std::chrono::seconds(10));

 private:
  void Loop();
  int Spawn();

  RunnerOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  // Between the last look at stopping_ and the new runner's pid in pid_.
  bool spawning_ = false;
  int pid_ = 0;
  int starts_ = 0;
  std::thread thread_;
};

}  // namespace mc::worker
