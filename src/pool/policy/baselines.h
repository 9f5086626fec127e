// The autoscalers a user would pick instead of the pool manager, reduced to their sizing
// rules (docs/pool/simulator.md names the sources): the Kubernetes HPA fed the pending depth, the
// Actions Runner Controller's scale-set rule, and every worker always on.
#pragma once

#include <deque>
#include <utility>

namespace mc::pool {

struct HpaOptions {
  double target_per_worker = 2;  // pending jobs per worker the metric targets
  double tolerance = 0.1;        // no change while within ±10 % of the target
  double scale_down_window_s = 300;
  double sync_s = 15;
  int min_replicas = 1;
};

// The recommendations of the last scale-down window, newest last.
struct HpaState {
  std::deque<std::pair<double, int>> recommendations;
};

// HpaDesired is one sync of the controller: desired = ceil(pending / target), held within
// the tolerance, clamped to [min, max], scale-up limited to max(4 pods, 100 %) a sync, and
// scale-down to the highest recommendation of the window.
int HpaDesired(HpaState& state, double now_s, int pending, int current, int max_workers,
               const HpaOptions& options);

struct ArcOptions {
  int min_runners = 1;
};

// ArcDesired is the runner scale set's target: min(max, pending + running + minRunners).
int ArcDesired(int pending, int running, int max_runners, const ArcOptions& options);

}  // namespace mc::pool
