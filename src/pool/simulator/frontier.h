// The trade the target wait makes: ours run once per target wait, each run's p95 wait against
// its worker-hours. A baseline is one point; ours is a curve, and is compared along it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/simulator/simulator.h"

namespace mc::pool {

struct FrontierPoint {
  Duration target_wait;
  SimResult result;
};

// The target waits `pool simulate --compare` and the bench sweep when none are given.
std::vector<Duration> DefaultTargetWaits();

// ParseTargetWaits reads a comma-separated list of durations: "30s,1m,2m,5m".
Result<std::vector<Duration>> ParseTargetWaits(const std::string& text);

// SimulateFrontier runs ours on the trace once per target wait, the rest of `options` kept.
std::vector<FrontierPoint> SimulateFrontier(const Trace& trace,
                                            const std::vector<SimWorkerSpec>& workers,
                                            const SimOptions& options,
                                            const std::vector<Duration>& target_waits);

// The fewest worker-hours of the points whose p95 wait is at most `wait_s`; none if no point's
// is.
std::optional<double> HoursAtWait(const std::vector<FrontierPoint>& points, double wait_s);

// The lowest p95 wait of the points that use at most `hours`; none if no point does.
std::optional<double> WaitAtHours(const std::vector<FrontierPoint>& points, double hours);

}  // namespace mc::pool
