#include "pool/simulator/baselines.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "pool/simulator/baseline_scaler.h"

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

namespace {

// Starting a pod or a runner: the service start-up, after a boot if the box was off.
void StartRunner(SimFleet& fleet, SimWorker& worker, double t) {
  const double up = worker.powered ? std::max(t, worker.powered_at) : t + worker.spec->boot_s;
  if (!worker.powered) {
    worker.powered = true;
    worker.powered_at = up;
  }
  worker.admission = Admission::kStarting;
  worker.available_at = up + worker.spec->startup_s;
  fleet.CountPromotion();
}

// Stopping a pod: the runner aborts its jobs on SIGTERM, and PeerTube puts them back.
void KillRunner(SimFleet& fleet, SimWorker& worker, double t) {
  fleet.InterruptJobs(worker, t);
  worker.admission = Admission::kDrained;
  worker.arc_runner = false;
  fleet.CountDemotion();
}

// The pods of a Deployment, sized by a controller that polls on a period: the HPA and KEDA.
class ReplicaScaler : public BaselineScaler {
 public:
  ReplicaScaler(SimFleet& fleet, double period_s, int min_replicas)
      : fleet_(fleet), period_s_(period_s), min_replicas_(min_replicas) {}

  int Start() override { return min_replicas_; }

  void Poll(double t) override {
    if (t < next_poll_) return;
    std::vector<int> pods = Pods(t);
    const int desired =
        Desired(t, static_cast<int>(fleet_.Pending().size()), static_cast<int>(pods.size()),
                static_cast<int>(fleet_.Workers().size()));
    Resize(std::move(pods), desired, t);
    next_poll_ += period_s_;
  }

 protected:
  // The controller's one sync: the pods it wants.
  virtual int Desired(double t, int pending, int current, int max_workers) = 0;

 private:
  // The pods, as a ReplicaSet holds them.
  // A pod whose GPU is gone fails its liveness probe and is made again on another node.
  // So it is no pod of its worker any more.
  std::vector<int> Pods(double t) {
    std::vector<SimWorker>& workers = fleet_.Workers();
    std::vector<int> pods;
    for (std::size_t i = 0; i < workers.size(); ++i) {
      SimWorker& worker = workers[i];
      if (worker.admission != Admission::kDrained && worker.running.empty() &&
          worker.FaultActive(FailureKind::kGpuUnavailable, t)) {
        worker.admission = Admission::kDrained;
      }
      if (worker.admission == Admission::kStarting || worker.admission == Admission::kAvailable) {
        pods.push_back(static_cast<int>(i));
      }
    }
    return pods;
  }

  // Starts pods on drained workers, or stops the least ready ones first.
  void Resize(std::vector<int> pods, int desired, double t) {
    std::vector<SimWorker>& workers = fleet_.Workers();
    const int current = static_cast<int>(pods.size());
    if (desired > current) {
      int start = desired - current;
      for (SimWorker& worker : workers) {
        if (start == 0) break;
        if (worker.admission != Admission::kDrained) continue;
        StartRunner(fleet_, worker, t);
        --start;
      }
    } else if (desired < current) {
      std::sort(pods.begin(), pods.end(), [&](int a, int b) {
        const bool a_ready = workers[a].admission == Admission::kAvailable;
        const bool b_ready = workers[b].admission == Admission::kAvailable;
        if (a_ready != b_ready) return !a_ready;
        return workers[a].available_at > workers[b].available_at;
      });
      for (int k = 0; k < current - desired; ++k) KillRunner(fleet_, workers[pods[k]], t);
    }
  }

  SimFleet& fleet_;
  const double period_s_;
  const int min_replicas_;
  double next_poll_ = 0;
};

class HpaScaler : public ReplicaScaler {
 public:
  HpaScaler(SimFleet& fleet, const HpaOptions& options)
      : ReplicaScaler(fleet, options.sync_s, options.min_replicas), options_(options) {}

 private:
  int Desired(double t, int pending, int current, int max_workers) override {
    return HpaDesired(state_, t, pending, current, max_workers, options_);
  }

  const HpaOptions options_;
  HpaState state_;
};

class KedaScaler : public ReplicaScaler {
 public:
  KedaScaler(SimFleet& fleet, const KedaOptions& options)
      : ReplicaScaler(fleet, options.polling_s, options.min_replicas), options_(options) {}

 private:
  int Desired(double t, int pending, int current, int max_workers) override {
    return KedaDesired(state_, t, pending, current, max_workers, options_);
  }

  const KedaOptions options_;
  KedaState state_;
};

// ARC's runner scale set: ephemeral runners, each of which takes one job and leaves. Its
// listener reacts to every message, so it acts every step.
class ArcScaler : public BaselineScaler {
 public:
  ArcScaler(SimFleet& fleet, const ArcOptions& options) : fleet_(fleet), options_(options) {}

  int Start() override { return options_.min_runners; }
  void AdoptStartingWorker(SimWorker& worker) override { worker.arc_runner = true; }

  void Step(double t) override {
    int runners = 0;
    int running = 0;
    for (const SimWorker& worker : fleet_.Workers()) {
      runners += worker.arc_runner;
      running += static_cast<int>(worker.running.size());
    }
    const int desired = ArcDesired(static_cast<int>(fleet_.Pending().size()), running,
                                   static_cast<int>(fleet_.Workers().size()), options_);
    if (runners < desired) CreateRunners(desired - runners, t);
    if (runners > desired) DeleteIdleRunners(runners - desired, t);
  }

  bool Holds(const SimWorker& worker) const override { return worker.arc_runner; }
  bool HasFreeSlot(const SimWorker& worker) const override {
    return worker.arc_runner && !worker.arc_used;
  }
  void JobStarted(SimWorker& worker) override { worker.arc_used = true; }
  // An ephemeral runner leaves after its one job.
  void JobFinished(SimWorker& worker) override {
    if (!worker.arc_runner) return;
    worker.arc_runner = false;
    worker.admission = Admission::kDrained;
  }

 private:
  void CreateRunners(int create, double t) {
    for (SimWorker& worker : fleet_.Workers()) {
      if (create == 0) break;
      if (worker.arc_runner || !worker.running.empty()) continue;
      worker.arc_runner = true;
      worker.arc_used = false;
      StartRunner(fleet_, worker, t);
      --create;
    }
  }

  // Only idle runners are deleted; the server refuses to remove a busy one.
  void DeleteIdleRunners(int surplus, double t) {
    for (SimWorker& worker : fleet_.Workers()) {
      if (surplus == 0) break;
      if (!worker.arc_runner || !worker.running.empty() || worker.arc_used) continue;
      KillRunner(fleet_, worker, t);
      --surplus;
    }
  }

  SimFleet& fleet_;
  const ArcOptions options_;
};

// Every worker on, all the time.
class StaticScaler : public BaselineScaler {
 public:
  explicit StaticScaler(SimFleet& fleet) : fleet_(fleet) {}

  int Start() override {
    for (SimWorker& worker : fleet_.Workers()) worker.powered = true;
    return static_cast<int>(fleet_.Workers().size());
  }

 private:
  SimFleet& fleet_;
};

// The clairvoyant limit. It knows when each running job ends.
// It brings a worker in only for a job no slot takes before its wait reaches the target.
// It does so as late as that allows (one enable before).
// It lets a worker go the moment it has no job and none waits. Nothing is interrupted.
// A greedy with perfect foresight, not a proven optimum.
class BoundScaler : public BaselineScaler {
 public:
  BoundScaler(SimFleet& fleet, const SimOptions& options)
      : fleet_(fleet),
        start_(options.config.hysteresis.min_active),
        wait_s_(options.bound_wait_s) {}

  int Start() override { return start_; }

  void Step(double t) override {
    int on = 0;
    const std::vector<double> frees = SlotFreeTimes(t, on);
    const Demand demand = WorkersNeeded(t, frees);
    BringIn(demand.needed, t);
    if (!demand.waits) LetGo(on);
  }

 private:
  static constexpr double kLead = 2;  // an enable of a worker whose service is up

  struct Demand {
    int needed = 0;      // slots to bring in now
    bool waits = false;  // some servable job is pending
  };

  // When each slot of a worker that is on frees, soonest first; `on` counts those workers.
  std::vector<double> SlotFreeTimes(double t, int& on) const {
    std::vector<double> frees;
    for (const SimWorker& worker : fleet_.Workers()) {
      if (!worker.IsInService() || worker.admission == Admission::kDraining) continue;
      ++on;
      const double from = worker.admission == Admission::kStarting ? worker.available_at : t;
      for (int j : worker.running) frees.push_back(std::max(from, fleet_.Job(j).end_s));
      for (int k = static_cast<int>(worker.running.size()); k < worker.spec->concurrency; ++k) {
        frees.push_back(from);
      }
    }
    std::sort(frees.begin(), frees.end());
    return frees;
  }

  // Walks the pending jobs in hand-out order: each takes the soonest slot. One whose slot
  // comes after its deadline needs a worker now, if its deadline is within the lead. So do
  // all such late jobs at once, when more wait than the workers that are off could take.
  Demand WorkersNeeded(double t, const std::vector<double>& frees) const {
    Demand demand;
    std::size_t slot = 0;
    int late = 0;
    for (const auto& [priority, j] : fleet_.Pending()) {
      const SimJob& job = fleet_.Job(j);
      if (job.unservable) continue;
      demand.waits = true;
      const double deadline = job.pending_since + wait_s_;
      if (slot < frees.size() && frees[slot] <= deadline) {
        ++slot;
        continue;
      }
      if (deadline - t <= kLead) ++demand.needed;
      ++late;
    }
    if (late > OffSlots()) demand.needed = std::max(demand.needed, late);
    return demand;
  }

  int OffSlots() const {
    int slots = 0;
    for (const SimWorker& worker : fleet_.Workers()) {
      if (worker.admission == Admission::kDrained) slots += worker.spec->concurrency;
    }
    return slots;
  }

  // Enables drained workers until `needed` slots come. A box that sleeps is taken as if
  // woken in time: the limit knows the future.
  void BringIn(int needed, double t) {
    for (SimWorker& worker : fleet_.Workers()) {
      if (needed <= 0) break;
      if (worker.admission != Admission::kDrained || (worker.powered && !worker.IsPoweredUp(t))) {
        continue;
      }
      if (!worker.powered) {
        worker.powered = true;
        worker.powered_at = t;
        worker.probe_at = t;
      }
      worker.admission = Admission::kStarting;
      worker.available_at = t + worker.spec->EnableSeconds();
      fleet_.CountPromotion();
      needed -= worker.spec->concurrency;
    }
  }

  // Drains idle workers down to the configuration's min_active.
  void LetGo(int on) {
    for (SimWorker& worker : fleet_.Workers()) {
      if (on <= fleet_.Config().hysteresis.min_active) break;
      if (worker.admission != Admission::kAvailable || !worker.running.empty()) continue;
      worker.admission = Admission::kDrained;
      fleet_.CountDemotion();
      --on;
    }
  }

  SimFleet& fleet_;
  const int start_;
  const double wait_s_;  // every job's wait is kept under this
};

}  // namespace

std::unique_ptr<BaselineScaler> MakeBaselineScaler(const SimOptions& options, SimFleet& fleet) {
  switch (options.policy) {
    case PolicyKind::kPoolManager:
      return nullptr;
    case PolicyKind::kHpa:
      return std::make_unique<HpaScaler>(fleet, options.hpa);
    case PolicyKind::kKeda:
      return std::make_unique<KedaScaler>(fleet, options.keda);
    case PolicyKind::kArc:
      return std::make_unique<ArcScaler>(fleet, options.arc);
    case PolicyKind::kStatic:
      return std::make_unique<StaticScaler>(fleet);
    case PolicyKind::kBound:
      return std::make_unique<BoundScaler>(fleet, options);
  }
  return nullptr;
}

}  // namespace mc::pool
