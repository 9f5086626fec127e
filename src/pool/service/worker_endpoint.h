// Where the pool manager reaches one worker, as its configuration (bare metal) or Kubernetes
// (the workers' pods) names it. A plain value: the channels and the signal reader read it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace mc::pool {

// The commands a bare-metal worker is started, stopped, woken and suspended with, each an
// argv run without a shell. An empty one is not configured: the action it would carry fails
// as unsupported rather than doing nothing.
struct BareMetalCommands {
  std::vector<std::string> start;     // start the worker's service (systemctl start media-worker@0)
  std::vector<std::string> stop;      // stop it once drained
  std::vector<std::string> wake;      // wake the box (wakeonlan MAC)
  std::vector<std::string> suspend;   // suspend the box (ssh HOST systemctl suspend)
  std::chrono::seconds deadline{60};  // each command is killed after this long
};

struct WorkerEndpoint {
  // The runner's name in PeerTube, and the policy's name for the worker.
  std::string name;
  // The base URL of the worker's status and control API (http://HOST:PORT).
  std::string url;
  // The file holding the control API's token; read at each use, so a rotated token is
  // picked up, and never copied into a log or a command line.
  std::string control_token_file;
  bool wakeable = false;
  BareMetalCommands commands;
};

}  // namespace mc::pool
