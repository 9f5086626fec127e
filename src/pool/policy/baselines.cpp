#include "pool/policy/baselines.h"

#include <algorithm>
#include <cmath>

namespace mc::pool {

int HpaDesired(HpaState& state, double now_s, int pending, int current, int max_workers,
               const HpaOptions& options) {
  int desired = static_cast<int>(std::ceil(pending / options.target_per_worker));
  if (current > 0) {
    const double usage_ratio = pending / (options.target_per_worker * current);
    if (std::abs(usage_ratio - 1) <= options.tolerance) desired = current;
  }
  desired = std::clamp(desired, options.min_replicas, std::max(options.min_replicas, max_workers));

  // The stabilisation window: a scale-down goes only as far as the highest recommendation
  // of the last five minutes.
  state.recommendations.emplace_back(now_s, desired);
  while (!state.recommendations.empty() &&
         state.recommendations.front().first < now_s - options.scale_down_window_s) {
    state.recommendations.pop_front();
  }
  if (desired < current) {
    int highest = desired;
    for (const auto& [at, recommendation] : state.recommendations) {
      highest = std::max(highest, recommendation);
    }
    desired = std::min(current, highest);
  }
  // The default scale-up policies: 4 pods or 100 % a period, whichever allows more.
  return std::min(desired, current + std::max(4, current));
}

int KedaDesired(KedaState& state, double now_s, int pending, int current, int max_workers,
                const KedaOptions& options) {
  const int desired = std::clamp(static_cast<int>(std::ceil(pending / options.target_per_worker)),
                                 options.min_replicas, std::max(options.min_replicas, max_workers));
  state.recommendations.emplace_back(now_s, desired);
  while (state.recommendations.front().first < now_s - options.cooldown_s) {
    state.recommendations.pop_front();
  }
  if (desired >= current) return desired;
  int highest = desired;
  for (const auto& [at, recommendation] : state.recommendations) {
    highest = std::max(highest, recommendation);
  }
  return std::min(current, highest);
}

int ArcDesired(int pending, int running, int max_runners, const ArcOptions& options) {
  return std::min(max_runners, pending + running + options.min_runners);
}

}  // namespace mc::pool
