#include "cli/daemon_support.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace mc {

sigset_t BlockStopSignals() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  return stop;
}

StopSignals::StopSignals() {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGTERM);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  thread_ = std::thread([this] {
    int received = 0;
    sigwait(&signals_, &received);
    // SIGUSR1 only ends this thread, for a command that ends by itself.
    if (received == SIGUSR1) return;
    {
      const std::lock_guard lock(mutex_);
      received_ = received;
    }
    requested_ = true;
    came_.notify_all();
  });
}

StopSignals::~StopSignals() {
  pthread_kill(thread_.native_handle(), SIGUSR1);
  thread_.join();
}

int StopSignals::Wait() {
  std::unique_lock lock(mutex_);
  came_.wait(lock, [this] { return received_ != 0; });
  return received_;
}

std::string StopSignals::Name() const {
  const std::lock_guard lock(mutex_);
  if (received_ == 0) return "";
  return received_ == SIGINT ? "SIGINT" : "SIGTERM";
}

std::string ResolveProgram(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate =
        std::filesystem::path(dirs.substr(start, end - start)) / program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return program;
}

void Log(const std::string& line) { std::cerr << line + "\n"; }

}  // namespace mc
