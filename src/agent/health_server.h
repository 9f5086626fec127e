// HealthServer answers the kubelet's liveness and readiness probes over plain HTTP: GET
// /livez and /readyz, each answered by a callback, every other path 404. It is a few dozen
// lines on purpose: a probe needs one request line and one status, nothing of HTTP/1.1's
// rest, and a library for it would be the agent's largest part.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "base/result.h"

namespace mc {

struct ProbeAnswer {
  bool ok = false;
  // Why it is not ok, or "ok".
  std::string text;
};

struct HealthChecks {
  std::function<ProbeAnswer()> live;
  std::function<ProbeAnswer()> ready;
};

class HealthServer {
 public:
  // Start listens on `address` ("HOST:PORT"; port 0 picks a free one) and serves on a
  // thread of its own until the server is destroyed.
  static Result<std::unique_ptr<HealthServer>> Start(const std::string& address,
                                                     HealthChecks checks);
  ~HealthServer();
  HealthServer(const HealthServer&) = delete;
  HealthServer& operator=(const HealthServer&) = delete;

  int port() const { return port_; }

 private:
  HealthServer() = default;
  void Serve();
  void Answer(int connection) const;

  HealthChecks checks_;
  int listener_ = -1;
  int wake_ = -1;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace mc
