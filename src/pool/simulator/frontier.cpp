#include "pool/simulator/frontier.h"

#include <algorithm>

#include "common/base/text.h"
#include "pool/policy/yaml_values.h"

namespace mc::pool {

std::vector<Duration> DefaultTargetWaits() {
  return {Seconds(0), Seconds(30), Minutes(1), Minutes(2), Minutes(5)};
}

Result<std::vector<Duration>> ParseTargetWaits(const std::string& text) {
  std::vector<Duration> waits;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part(Trim(std::string_view(text).substr(start, comma - start)));
    start = comma + 1;
    const std::optional<Duration> wait = ParseDurationText(part);
    if (!wait) {
      return InvalidInput("--target-waits: \"" + part +
                          "\" is not a duration; give seconds or a number with s, m or h, "
                          "comma-separated, as in 30s,1m,2m,5m");
    }
    waits.push_back(*wait);
  }
  return waits;
}

std::vector<FrontierPoint> SimulateFrontier(const Trace& trace,
                                            const std::vector<SimWorkerSpec>& workers,
                                            const SimOptions& options,
                                            const std::vector<Duration>& target_waits) {
  std::vector<FrontierPoint> points;
  for (const Duration wait : target_waits) {
    SimOptions run = options;
    run.policy = PolicyKind::kPoolManager;
    run.config.target_wait = wait;
    points.push_back({wait, Simulate(trace, workers, run)});
  }
  return points;
}

std::optional<double> HoursAtWait(const std::vector<FrontierPoint>& points, double wait_s) {
  std::optional<double> best;
  for (const FrontierPoint& point : points) {
    if (point.result.wait_p95_s > wait_s) continue;
    best = std::min(best.value_or(point.result.worker_hours), point.result.worker_hours);
  }
  return best;
}

std::optional<double> WaitAtHours(const std::vector<FrontierPoint>& points, double hours) {
  std::optional<double> best;
  for (const FrontierPoint& point : points) {
    if (point.result.worker_hours > hours) continue;
    best = std::min(best.value_or(point.result.wait_p95_s), point.result.wait_p95_s);
  }
  return best;
}

}  // namespace mc::pool
