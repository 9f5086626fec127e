// The simulation's jobs and workers, and the fleet as a sizing policy sees and drives it. The
// simulator owns them; the baselines (baseline_scaler.h) act on them through SimFleet.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/gates.h"
#include "pool/policy/job_class.h"
#include "pool/policy/signals.h"
#include "pool/simulator/sim_workers.h"
#include "pool/trace/trace.h"

namespace mc::pool {

enum class JobState { kWaiting, kPending, kRunning, kDone, kErrored };
// A worker's admission of jobs, as its gate holds it.
enum class Admission { kDrained, kStarting, kAvailable, kDraining };

struct SimJob {
  const TraceJob* spec = nullptr;
  int parent = -1;
  std::vector<int> children;
  JobState state = JobState::kWaiting;
  bool arrived = false;
  double pending_since = 0;
  double wait_s = 0;
  int failures = 0;
  std::size_t run = 0;  // which of its recorded runs is next, or under way
  int worker = -1;
  double started_s = 0;
  double end_s = 0;
  double encode_s = 0;
  JobNeed need;
  bool unservable = false;
  bool gated = false;
};

struct SimWorker {
  const SimWorkerSpec* spec = nullptr;
  bool powered = true;
  double powered_at = 0;  // a booting box is up from then on
  Admission admission = Admission::kDrained;
  double available_at = 0;
  std::vector<int> running;
  ClassMask classes = kEveryClass;
  double probe_at = 0;
  bool probe_ok = true;
  bool refusing = false;  // its own gate refuses work after a job without evidence
  bool admitted = false;  // it has admitted jobs at some time of the run
  bool was_down = false;
  std::optional<bool> evidence;
  int completed = 0;
  int failed = 0;
  std::optional<LastJob> last_job;
  // The ARC-like baseline's: an ephemeral runner lives on this worker, and has taken its job.
  bool arc_runner = false;
  bool arc_used = false;
  int held_sessions = 0;  // NVENC sessions another process holds, until `held_until`
  double held_until = 0;
  bool evidence_fails_next = false;
  double probe_fails_until = -1;

  bool FaultActive(FailureKind kind, double t) const {
    if (spec->failure && spec->failure->kind == kind && spec->failure->ActiveAt(t)) return true;
    for (const WorkerFailure& later : spec->later_failures) {
      if (later.kind == kind && later.ActiveAt(t)) return true;
    }
    return false;
  }
  bool IsPoweredUp(double t) const { return powered && t >= powered_at; }
  // Starting, admitting jobs or finishing them: the pool holds it.
  bool IsInService() const {
    return powered && (admission == Admission::kStarting || admission == Admission::kAvailable ||
                       admission == Admission::kDraining);
  }
  bool HasRoom() const { return static_cast<int>(running.size()) < spec->concurrency; }
};

// The pending jobs as (priority, job), in PeerTube's hand-out order.
using PendingJobs = std::set<std::pair<int, int>>;

// The simulation as a baseline sees it, and the few things a baseline does to it beyond
// setting a worker's own fields.
class SimFleet {
 public:
  virtual std::vector<SimWorker>& Workers() = 0;
  virtual const SimJob& Job(int j) const = 0;
  virtual const PendingJobs& Pending() const = 0;
  // The configuration in effect: the trace's config events change it.
  virtual const PoolConfig& Config() const = 0;
  // Stops every job of `worker`; PeerTube puts each back without counting a failure.
  virtual void InterruptJobs(SimWorker& worker, double t) = 0;
  virtual void CountPromotion() = 0;
  virtual void CountDemotion() = 0;

 protected:
  ~SimFleet() = default;
};

}  // namespace mc::pool
