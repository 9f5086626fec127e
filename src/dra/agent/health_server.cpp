#include "dra/agent/health_server.h"

namespace mc::dra {
namespace {

http::Response AnswerOf(const std::function<ProbeAnswer()>& check) {
  const ProbeAnswer answer = check();
  return {.status = answer.ok ? 200 : 503, .body = answer.text + "\n"};
}

}  // namespace

Result<std::unique_ptr<HealthServer>> HealthServer::Start(const std::string& address,
                                                          HealthChecks checks) {
  http::Routes routes;
  routes["/livez"] = [live = std::move(checks.live)] { return AnswerOf(live); };
  routes["/readyz"] = [ready = std::move(checks.ready)] { return AnswerOf(ready); };
  if (checks.metrics) {
    routes["/metrics"] = [metrics = std::move(checks.metrics)] {
      // The text exposition format's own content type, version 0.0.4.
      return http::Response{.status = 200,
                            .content_type = "text/plain; version=0.0.4; charset=utf-8",
                            .body = metrics()};
    };
  }
  Result<std::unique_ptr<http::Server>> server = http::Server::Start(address, std::move(routes));
  if (!server) {
    return server.error().WithContext("--health-address");
  }
  return std::unique_ptr<HealthServer>(new HealthServer(std::move(*server)));
}

}  // namespace mc::dra
