// The autoscalers a user would pick instead of the pool manager, as their sizing rules:
//  - the Kubernetes HPA fed the pending depth;
//  - KEDA's metrics-api scaler;
//  - the Actions Runner Controller's scale-set rule;
//  - every worker always on.
// docs/pool/simulator.md names the sources.
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

// HpaDesired is one sync of the controller:
//  - desired = ceil(pending / target), held within the tolerance;
//  - clamped to [min, max];
//  - scale-up limited to max(4 pods, 100 %) a sync;
//  - scale-down limited to the highest recommendation of the window.
int HpaDesired(HpaState& state, double now_s, int pending, int current, int max_workers,
               const HpaOptions& options);

// KEDA's ScaledObject with a metrics-api trigger on the pending depth.
struct KedaOptions {
  double target_per_worker = 2;  // the trigger's targetValue
  double polling_s = 30;         // pollingInterval
  double cooldown_s = 300;       // cooldownPeriod
  int min_replicas = 1;          // KEDA's own default is 0; the pool's floor is min_active
};

// The polls' recommendations of the last cooldown, newest last.
struct KedaState {
  std::deque<std::pair<double, int>> recommendations;
};

// KedaDesired is one poll: desired = ceil(pending / target) in [min, max], at once upward;
// downward only as far as the highest recommendation of the last cooldown.
int KedaDesired(KedaState& state, double now_s, int pending, int current, int max_workers,
                const KedaOptions& options);

struct ArcOptions {
  int min_runners = 1;
};

// ArcDesired is the runner scale set's target: min(max, pending + running + minRunners).
int ArcDesired(int pending, int running, int max_runners, const ArcOptions& options);

}  // namespace mc::pool
