#include "cli/daemon_support.h"

#include <pthread.h>

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

void Log(const std::string& line) { std::cerr << line + "\n"; }

}  // namespace mc
