// The time from a pending burst to the pool manager's first promotion, against the policy's
// own minimum: P at or above the up threshold for `up_windows` windows of `up_window`. The
// service's loop (PoolService) runs on its own clock, a cycle at a time, with three workers
// whose documents are the real worker's (tests/pool/service/data) and a control channel that
// sets their admission as the worker's control API would; the queue is given as the PeerTube
// reader gives it. The burst lands at every offset within a cycle, since the manager only
// sees it on its next read: the figure is the worst and the median over the offsets, as a
// ratio to the minimum. Run with the shipped defaults and with the end-to-end test's short
// windows (tests/peertube/pool_e2e.py), whose run prints the same figure on the real server.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pool/policy/config.h"
#include "pool/service/pool_service.h"

namespace {

using namespace mc;

std::string WorkerDocument(const std::string& state) {
  std::ifstream in(MEDIA_CAP_SOURCE_DIR "/tests/pool/service/data/status-ada-after-self-test.json");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json document = nlohmann::json::parse(text.str());
  document["state"] = state;
  document["active_jobs"] = 0;
  document["concurrency"] = 2;
  return document.dump();
}

// Sets each worker's admission as its control API would, and nothing else.
class AdmissionChannel : public pool::ControlChannel {
 public:
  Result<void> Apply(const pool::Action& action, const pool::WorkerEndpoint& worker) override {
    if (action.kind == pool::ActionKind::kEnable) states[worker.name] = "AVAILABLE";
    if (action.kind == pool::ActionKind::kDrain) states[worker.name] = "DRAINED";
    return Ok();
  }
  std::string Describe(const pool::Action& action,
                       const pool::WorkerEndpoint& worker) const override {
    return std::string(pool::ActionKindName(action.kind)) + " " + worker.name;
  }
  std::map<std::string, std::string> states;
};

// FirstPromotion is the seconds from the burst's arrival (at `offset` into a cycle) to the
// cycle that promoted a SPARE worker on pressure; negative when none came in ten minutes.
double FirstPromotion(const pool::PoolConfig& policy, double offset) {
  AdmissionChannel channel;
  const std::vector<pool::WorkerEndpoint> workers = {{.name = "a:gpu0", .url = "http://a"},
                                                     {.name = "b:gpu0", .url = "http://b"},
                                                     {.name = "c:gpu0", .url = "http://c"}};
  for (const auto& worker : workers) channel.states[worker.name] = "DRAINED";
  const double cycle = policy.cycle.count();
  // The burst: three uploads' first jobs and their children, as the end-to-end test's.
  const double burst_at = 10 * cycle + offset;
  double now = 0;
  pool::ServiceInputs inputs;
  inputs.read_queue = [&](double) -> Result<pool::QueueSignal> {
    pool::QueueSignal queue;
    if (now >= burst_at) {
      for (int i = 0; i < 24; ++i)
        queue.pending.push_back(
            {"vod-hls-transcoding", pool::JobShape{}, pool::Seconds(now - burst_at)});
    }
    return queue;
  };
  inputs.read_status = [&](const pool::WorkerEndpoint& worker) -> Result<std::string> {
    return WorkerDocument(channel.states[worker.name]);
  };
  inputs.list_workers = [&]() -> Result<std::vector<pool::WorkerEndpoint>> { return workers; };
  pool::PoolService service(policy, policy.cycle, std::move(inputs), channel,
                            [](const std::string&) {});
  for (now = 0; now < burst_at + 600; now += cycle) {
    service.Cycle(pool::At(1000 + now));
    if (service.Report().counters.promotions > 0) return now - burst_at;
  }
  return -1;
}

void Report(const char* name, const pool::PoolConfig& policy) {
  const double minimum = policy.hysteresis.up_window.count() * policy.hysteresis.up_windows;
  std::vector<double> times;
  const int offsets = 20;
  for (int i = 0; i < offsets; ++i) {
    times.push_back(FirstPromotion(policy, policy.cycle.count() * i / offsets));
  }
  std::sort(times.begin(), times.end());
  if (times.front() < 0) {
    std::printf("%s: no promotion within ten minutes of the burst\n", name);
    return;
  }
  const double median = times[times.size() / 2], worst = times.back();
  std::printf(
      "%s (cycle %.0f s, %d windows of %.0f s): first promotion %.1f s after the burst at "
      "the median, %.1f s at worst; the minimum is %.0f s: ratio %.2f median, %.2f worst\n",
      name, policy.cycle.count(), policy.hysteresis.up_windows, policy.hysteresis.up_window.count(),
      median, worst, minimum, median / minimum, worst / minimum);
}

}  // namespace

int main() {
  pool::PoolConfig shipped;
  Report("shipped policy", shipped);
  pool::PoolConfig e2e;
  e2e.cycle = pool::Seconds(3);
  e2e.pressure.depth_waves = 1;
  e2e.pressure.age_full = pool::Seconds(120);
  e2e.hysteresis.up_threshold = 0.5;
  e2e.hysteresis.up_window = pool::Seconds(6);
  e2e.hysteresis.up_windows = 2;
  e2e.hysteresis.promotion_spacing = pool::Seconds(9);
  Report("pool_e2e.py's policy", e2e);
  return 0;
}
