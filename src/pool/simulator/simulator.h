// The simulator replays a trace against simulated workers, time-stepped.
// PeerTube's hand-out is as it is:
//  - runners pull, and the first accept wins;
//  - a job's children become pending when it completes;
//  - a failed job is retried up to 5 times.
// One policy sizes the pool: ours, through the very Decide the service calls, or a baseline.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/decision.h"
#include "pool/simulator/baselines.h"
#include "pool/simulator/sim_workers.h"
#include "pool/trace/trace.h"

namespace mc::pool {

// The policy a simulation runs. It is either:
//  - the pool manager's own (policy.h), named "ours" on the command line;
//  - or a baseline it is compared with (baselines.h).
// kBound is no autoscaler: it is the clairvoyant limit (docs/pool/simulator.md).
// It knows when every running job will end.
// It holds a worker only when a job would otherwise wait past its target.
enum class PolicyKind { kPoolManager, kHpa, kKeda, kArc, kStatic, kBound };
std::string_view PolicyKindName(PolicyKind kind);
std::optional<PolicyKind> ParsePolicyKind(std::string_view name);

struct SimOptions {
  PolicyKind policy = PolicyKind::kPoolManager;
  PoolConfig config;
  HpaOptions hpa;
  KedaOptions keda;
  ArcOptions arc;
  double bound_wait_s = 60;  // the clairvoyant limit keeps every job's wait under this
  double step_s = 1;
  std::uint32_t race_order = 1;  // picks the random order in which free runners ask
  // The intervals in which the job list cannot be read, each [from, from + for).
  std::vector<std::pair<double, double>> queue_outages;
  bool keep_log = false;  // keep every reason and action of ours, with its time
  // Start as the pool service starts (a replay): ours has no memory of the workers.
  // Every worker is drained, so the first cycles join them and promote min_active.
  // Otherwise ours starts with min_active workers ACTIVE already.
  bool start_as_service = false;
  // When the policy is asked, in seconds from the start and in order.
  // A replay's are the real service's cycles.
  // A slow read or a loaded box stretches those past config.cycle.
  // Past the last, and when empty, every config.cycle.
  std::vector<double> cycles_at_s;
};

// One action of ours, with the simulated time it was decided at (keep_log).
struct TimedAction {
  double t_s = 0;
  Action action;
  std::string before;  // the worker's manager state before the cycle, and after it
  std::string after;
  std::string reason;  // the cycle's sentence about it; empty where the cycle said none
};

// One reason of ours, with its time (keep_log).
struct TimedReason {
  double t_s = 0;
  Reason reason;
};

// Which worker ran which job, and when (keep_log).
struct JobRunRecord {
  std::string job;
  std::string worker;
  double start_s = 0;
  double end_s = 0;
  std::string outcome;  // completed, failed, interrupted
};

// One point of the P-over-time series, taken at every cycle.
struct PressurePoint {
  double t_s = 0;
  double pressure = 0;
  int workers_on = 0;
  int pending = 0;
  // For the pool page (`pool simulate --html`): each class's P over the slots of the workers
  // in service, as the service's page draws it, and the oldest pending job's wait.
  std::array<double, kJobClassCount> class_pressure{};
  double oldest_wait_s = 0;
};

// One worker as the run left it, for the pool page.
struct SimWorkerEnd {
  std::string name;
  std::string manager_state;    // ours' state of it; a baseline's: ACTIVE while it holds it
  std::string admission_state;  // AVAILABLE, DRAINED, DRAINING
  int active_jobs = 0;
  int concurrency = 0;
  int completed = 0;
  int failed = 0;
  std::optional<bool> evidence_ok;  // of its last job
};

struct SimResult {
  PolicyKind policy = PolicyKind::kPoolManager;
  int jobs = 0;
  int completed = 0;
  int unservable = 0;   // no worker of the pool can run it (or its parent) at all
  int errored = 0;      // failed five times
  int unfinished = 0;   // still waiting when the simulation gave up; 0 unless something is wrong
  int interrupted = 0;  // killed or aborted by the sizing policy
  int retries = 0;      // job errors from worker faults, each retried by PeerTube
  int class_gate_waits = 0;
  int promotions = 0;
  int demotions = 0;
  double makespan_s = 0;
  double wait_p50_s = 0;
  double wait_p95_s = 0;
  double wait_max_s = 0;
  double worker_hours = 0;
  double busy_hours = 0;
  double idle_hours = 0;
  double simulated_s = 0;
  std::vector<std::string> unservable_ids;
  std::vector<PressurePoint> pressure;
  std::vector<std::string> log;
  std::vector<TimedAction> actions;
  std::vector<TimedReason> reasons;
  std::vector<JobRunRecord> runs;
  std::vector<SimWorkerEnd> workers_at_end;
};

SimResult Simulate(const Trace& trace, const std::vector<SimWorkerSpec>& workers,
                   const SimOptions& options);

}  // namespace mc::pool
