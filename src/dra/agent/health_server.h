// HealthServer answers the kubelet's liveness and readiness probes over plain HTTP.
// A callback answers each of GET /livez and /readyz.
// The answer is 200 when it is ok, else 503 with its reason.
// A third, when given, answers GET /metrics with Prometheus text.
// The HTTP is the project's own small server (src/common/http/http_server.h).
// That header also says why it is not a library.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/base/result.h"
#include "common/http/http_server.h"

namespace mc::dra {

struct ProbeAnswer {
  bool ok = false;
  // Why it is not ok, or "ok".
  std::string text;
};

struct HealthChecks {
  std::function<ProbeAnswer()> live;
  std::function<ProbeAnswer()> ready;
  // The metrics' text; without it /metrics is 404.
  std::function<std::string()> metrics;
};

class HealthServer {
 public:
  // Start listens on `address`, "HOST:PORT"; port 0 picks a free one.
  // It serves on a thread of its own until the server is destroyed.
  static Result<std::unique_ptr<HealthServer>> Start(const std::string& address,
                                                     HealthChecks checks);

  int port() const { return server_->port(); }

 private:
  explicit HealthServer(std::unique_ptr<http::Server> server) : server_(std::move(server)) {}

  std::unique_ptr<http::Server> server_;
};

}  // namespace mc::dra
