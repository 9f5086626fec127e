// What the subcommands that run until stopped (worker run, pool run) share: the stop signals
// they wait for, and their log lines.
#pragma once

#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mc {

// BlockStopSignals blocks SIGTERM and SIGINT in this thread and the threads it starts. So the
// main thread takes them with sigwait. It returns the set.
sigset_t BlockStopSignals();

// StopSignals takes SIGTERM and SIGINT from the moment it is made, on a thread of its own. A
// start that takes a minute (the self-test) can then stop at once: its steps look at requested()
// between them, and hand flag() to those that run long. Make it before any other thread, since it
// blocks the signals in the threads started after it.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Whether SIGTERM or SIGINT came.
  bool requested() const { return requested_.load(); }
  // True once one came; for a step that runs long to look at.
  const std::atomic<bool>& flag() const { return requested_; }
  // Wait blocks until one comes and gives it.
  int Wait();
  // The signal's name: "SIGTERM" or "SIGINT".
  std::string Name() const;

 private:
  sigset_t signals_;
  std::atomic<bool> requested_ = false;
  mutable std::mutex mutex_;
  std::condition_variable came_;
  int received_ = 0;
  std::thread thread_;
};

// ResolveProgram finds a program on PATH as execvp would. A name with a slash is taken as it
// is. A name not found is given back as it was.
std::string ResolveProgram(const std::string& program);

// Log writes one line to stderr in one write, so that lines of several threads do not mix.
void Log(const std::string& line);

}  // namespace mc
