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
  // The base URL of the worker's read-only /status and /metrics (http://HOST:PORT).
  std::string url;
  // The base URL of its control API, a listener of its own: https://HOST:PORT, or
  // http://127.0.0.1:PORT on the manager's own host. Empty: the worker has none.
  std::string control_url;
  // The authority the control API's certificate must chain to (PEM); empty: the system's.
  std::string control_ca_file;
  // The name the control API's certificate must hold, where the URL names an address that no
  // certificate can (a pod's IP); empty: the URL's host.
  std::string control_tls_name;
  // The worker's own token, from a file of its own (`control_token_file`), or derived from
  // the pool's control key and the worker's name (`control_key_file`, which wins). Each is
  // read at each use, so a rotation is picked up, and never copied into a log or a command
  // line.
  std::string control_token_file;
  std::string control_key_file;
  bool wakeable = false;
  BareMetalCommands commands;
};

}  // namespace mc::pool
