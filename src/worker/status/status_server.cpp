#include "worker/status/status_server.h"

#include <optional>

#include "common/base/html_text.h"
#include "common/base/json_text.h"
#include "worker/status/gather_schedule.h"
#include "worker/status/status_page.h"

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::seconds Since(Clock::time_point then) {
  return std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - then);
}

http::Response NotGatheredYet() {
  return {.status = 503, .body = "the worker has not finished gathering its status yet\n"};
}

// The page reloads itself as often as the counters are read at the most.
constexpr int kPageRefreshSeconds = 10;

}  // namespace

Result<std::unique_ptr<StatusServer>> StatusServer::Start(ServeOptions options) {
  std::unique_ptr<StatusServer> status(new StatusServer(std::move(options)));
  http::Routes routes;
  routes["/status"] = [raw = status.get()] {
    const std::shared_ptr<const Rendering> current = raw->Current();
    if (!current) return NotGatheredYet();
    return http::Response{
        .status = 200, .content_type = "application/json", .body = current->status_json};
  };
  routes["/"] = [raw = status.get()] {
    const std::shared_ptr<const Rendering> current = raw->Current();
    if (!current) return NotGatheredYet();
    return http::Response{.status = 200,
                          .content_type = "text/html; charset=utf-8",
                          .body = StatusPageHtml(current->status, kPageRefreshSeconds),
                          .headers = {{"Content-Security-Policy", kPagePolicyHeader},
                                      {"X-Content-Type-Options", "nosniff"},
                                      {"Cache-Control", "no-store"}}};
  };
  routes["/metrics"] = [raw = status.get()] {
    const std::shared_ptr<const Rendering> current = raw->Current();
    if (!current) return NotGatheredYet();
    // The text exposition format's own content type, version 0.0.4.
    return http::Response{.status = 200,
                          .content_type = "text/plain; version=0.0.4; charset=utf-8",
                          .body = current->metrics_text};
  };
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start(status->options_.listen, std::move(routes));
  if (!server) return server.error().WithContext("--listen");
  status->server_ = std::move(*server);
  status->gatherer_ = std::thread([raw = status.get()] { raw->GatherLoop(); });
  return status;
}

StatusServer::~StatusServer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_requested_.notify_all();
  // The server goes first, so no request reads a rendering while the rest is torn down. A gathering
  // under way is waited for. The probe's own deadline bounds it.
  server_.reset();
  if (gatherer_.joinable()) gatherer_.join();
}

void StatusServer::Refresh(bool probe) {
  {
    const std::lock_guard lock(mutex_);
    refresh_ = true;
    refresh_probe_ = refresh_probe_ || probe;
  }
  stop_requested_.notify_all();
}

std::shared_ptr<const StatusServer::Rendering> StatusServer::Current() const {
  std::shared_ptr<const Rendering> current;
  {
    const std::lock_guard lock(mutex_);
    current = current_;
  }
  if (!current || !options_.amend) return current;
  StatusInputs inputs = current->inputs;
  options_.amend(inputs);
  nlohmann::ordered_json document = StatusDocument(inputs);
  std::string json = JsonText(document, 2) + "\n";
  return std::make_shared<const Rendering>(Rendering{.status_json = std::move(json),
                                                     .metrics_text = PrometheusText(inputs),
                                                     .status = std::move(document)});
}

void StatusServer::GatherLoop() {
  std::optional<probe::ProbeResult> probe;
  Clock::time_point last_probe;
  Clock::time_point last_counters;
  WorkerState previous = options_.gather.previous;
  GatherPlan plan{.full_probe = true};
  while (true) {
    {
      std::unique_lock lock(mutex_);
      stop_requested_.wait_for(lock, plan.after, [this] { return stopping_ || refresh_; });
      if (stopping_) return;
      if (refresh_probe_) plan.full_probe = true;
      refresh_ = false;
      refresh_probe_ = false;
    }
    GatherOptions gather = options_.gather;
    gather.previous = previous;
    if (options_.live) gather.live = options_.live();
    const bool probing = plan.full_probe || !probe;
    if (probing) {
      probe = probe::ProbeGpus(gather.probe);
      last_probe = Clock::now();
    }
    const StatusInputs inputs = GatherStatus(gather, *probe);
    last_counters = Clock::now();
    previous = inputs.state.state;
    if (options_.gathered) options_.gathered(*probe, inputs, probing);
    nlohmann::ordered_json document = StatusDocument(inputs);
    std::string json = JsonText(document, 2) + "\n";
    auto rendering =
        std::make_shared<const Rendering>(Rendering{.status_json = std::move(json),
                                                    .metrics_text = PrometheusText(inputs),
                                                    .status = std::move(document),
                                                    .inputs = inputs});
    {
      const std::lock_guard lock(mutex_);
      current_ = std::move(rendering);
    }
    plan = NextGather(Since(last_probe), Since(last_counters), inputs.probe.ok,
                      options_.gather.config);
    options_.log(options_.log_name + ": " + (probing ? "probed" : "read the counters") + "; " +
                 std::string(StateName(inputs.state.state)) + ": " + inputs.state.reason +
                 "; next " + (plan.full_probe ? "probe" : "counters") + " in " +
                 std::to_string(plan.after.count()) + " s");
  }
}

}  // namespace mc::worker
