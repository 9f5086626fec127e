#include "cli/worker_serve.h"

#include <signal.h>

#include <iostream>

#include "worker/status/status_server.h"

namespace mc {

int RunServe(const worker::GatherOptions& gather, const std::string& listen) {
  // SIGTERM and SIGINT are blocked in every thread before any starts. This thread waits for
  // them, so nothing has to be done inside a signal handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Result<std::unique_ptr<worker::StatusServer>> server = worker::StatusServer::Start(
      {.gather = gather, .listen = listen, .log = [](const std::string& line) {
         std::cerr << line + "\n";
       }});
  if (!server) {
    std::cerr << "worker serve: " << server.error_message() << "\n";
    return 1;
  }
  std::cerr << "worker serve: listening on " + (*server)->address() + " (/status, /metrics)\n";
  int received = 0;
  sigwait(&stop_signals, &received);
  std::cerr << std::string("worker serve: ") + (received == SIGTERM ? "SIGTERM" : "SIGINT") +
                   "; stopping\n";
  server->reset();
  return 0;
}

}  // namespace mc
