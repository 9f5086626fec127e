// One run of the policy, shared by the policy's own files; nothing else includes it.
// policy.cpp holds the shared rules and the profile table.
// Each profile's sizing rule has a file: policy_design.cpp, policy_work_aware.cpp.
// The worker rules, the pressure and the wake tier have theirs too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/decision.h"
#include "pool/policy/gates.h"
#include "pool/policy/pool_state.h"
#include "pool/policy/signals.h"
#include "pool/policy/time.h"

namespace mc::pool::internal {

// At most this many reasons about single candidates per cycle.
// So a pool of ten thousand workers still yields a page a person can read.
constexpr int kCandidateReasonsPerCycle = 3;

// OFFLINE is the worker's own verdict that its GPU fell over (an Xid, the device gone).
inline bool IsFault(AdmissionState state) {
  return state == AdmissionState::kGpuUnavailable || state == AdmissionState::kThermalThrottled ||
         state == AdmissionState::kOffline;
}

inline bool IsServing(AdmissionState state) {
  return state == AdmissionState::kAvailable || state == AdmissionState::kBusy;
}

// Pending jobs of one need: how many, the oldest, their work, and who can serve them.
struct Bucket {
  JobNeed need;
  int count = 0;
  int waited = 0;  // pending for the work-aware profile's patience or longer
  Duration oldest = Seconds(0);
  double work_s = 0;       // reference encode-seconds of the pending jobs (work.h)
  double to_come_s = 0;    // of the jobs they release when they complete
  int slots = 0;           // of the eligible ACTIVE workers that pass its gates
  int starting_slots = 0;  // of the ACTIVE workers still starting that pass its gates
  int starting_workers = 0;
  bool active_hard = false;  // some ACTIVE worker, starting or not, passes its hard gates
  bool servable = false;     // some worker of the pool passes its hard gates, now or once up
  double pressure = 0;

  // No ACTIVE worker serves it, nor will one that is starting: it needs a worker brought in.
  bool Waiting() const { return servable && slots + starting_slots == 0; }
};

// Cycle is one run of the policy. Each step is one rule of docs/pool/design.md.
// The rules apply in order: faults first, since they bypass everything, then the queue.
class Cycle {
 public:
  Cycle(PoolState state, const Signals& signals, TimePoint now, const PoolConfig& config)
      : signals_(signals), now_(now), config_(config) {
    decision_.state = std::move(state);
  }

  Decision Run();

 private:
  // A profile's sizing rule: how the pool grows and shrinks once the shared rules ran.
  using SizingRule = void (Cycle::*)();
  static SizingRule SizingRuleOf(PolicyProfile profile);

  // The encode rate, slots and free slots of the ACTIVE workers (work-aware profile).
  struct WorkCapacity {
    double rate = 0;
    int slots = 0;
    int free = 0;
  };
  // The pending work of the classes some worker can serve (work-aware profile).
  struct QueuedWork {
    double work_s = 0;
    double to_come_s = 0;
    int jobs = 0;
    int waited = 0;
  };

  // Shared helpers (policy.cpp).
  PoolState& state() { return decision_.state; }
  const PoolState& state() const { return decision_.state; }
  std::string PressureText() const { return FormatPressure(decision_.pressure); }
  void AddReason(Reason reason) { decision_.reasons.push_back(std::move(reason)); }
  void AddAction(ActionKind kind, const WorkerRecord& record, ReasonCode reason,
                 int concurrency = 0, ClassMask classes = kEveryClass);
  void EnterState(WorkerRecord& record, ManagerState next);
  const WorkerStatus* Readable(std::size_t i) const;
  bool VendorDisabled(const WorkerStatus& status) const;
  double Weight(const WorkerRecord& record, JobClass job_class) const;
  double MeanWeight(const WorkerRecord& record) const;
  bool IsCandidate(std::size_t i) const;
  int CountActive() const;
  bool Cheaper(std::size_t a, std::size_t b) const;

  // The shared rules, in the order Run applies them (policy.cpp).
  void MatchWorkers();
  bool HoldOnLostQueue();
  void UpdateWindows();
  bool EnsureMinActive();
  bool SpacingAllows();
  bool HeldFor(ReasonCode code, TimePoint since, Duration needed, double threshold);
  const Bucket* GatedBucket() const;
  JobClass DominantClass() const;
  std::vector<std::pair<double, std::size_t>> SortedCandidates(const Bucket* waiting,
                                                               JobClass job_class) const;
  bool ProbeAllows(std::size_t i);
  bool Promote(ReasonCode reason, int active_before, const Bucket* bucket);

  // Faults, transitions, disabled vendors and NVENC sessions (policy_workers.cpp).
  void DetectFaultsAndLearn();
  void ReportUnreadable(WorkerRecord& record, int& said);
  bool LearnFromJobs(WorkerRecord& record, const WorkerStatus& status);
  void CountFault(WorkerRecord& record, const std::string& fault, bool evidence_failed);
  void SettleTransitions();
  bool ProbeGreen(const WorkerStatus* status) const;
  void SettleDraining(WorkerRecord& record, const WorkerStatus* status);
  void SettleCooldown(WorkerRecord& record, const WorkerStatus* status);
  void SettleCold(WorkerRecord& record, const WorkerStatus* status);
  void TrackIdle(WorkerRecord& record, const WorkerStatus* status);
  void ReconcileAdmission(WorkerRecord& record, const WorkerStatus* status);
  void DisableVendors();
  void ShiftSessions();
  bool AnyVaapiWorker() const;
  void ShiftSmallJobs(std::size_t i);
  void RestoreSmallJobs(std::size_t i);

  // The pressure index and the gates' capacity per class (policy_demand.cpp).
  void MeasurePressure();
  int MarkEligible();
  void BucketPendingJobs();
  void CountSlotsFor(Bucket& bucket);
  bool ReportBucket(const Bucket& bucket);
  bool AnyWorkerCould(const JobNeed& need) const;
  bool Serves(const Bucket& waiting, std::size_t i) const;
  bool ServesPending(std::size_t i) const;
  static bool IsSmall(JobClass job_class);
  bool Counts(std::size_t i, const JobNeed& need) const;

  // The Wake-on-LAN tier and the suspend, shared by the profiles (policy_wake.cpp).
  void Wake(std::optional<Duration> busy = std::nullopt, double work_s = 0);
  bool WakeTriggered(std::optional<Duration> busy);
  bool WakesHeldBack(const Bucket* gated);
  std::vector<std::pair<double, std::size_t>> WakeableBoxes(const Bucket* gated) const;
  bool MayWake(std::size_t i);
  void StartWake(std::size_t i, std::optional<Duration> busy, double work_s, Duration sustained);
  void Sleep();

  // The design profile: the pressure index through windows and stagger (policy_design.cpp).
  void SizeByPressure();
  void ScaleUp();
  double PressureToCome(const Bucket& bucket) const;
  std::vector<const Bucket*> PressingBuckets() const;
  void ReportCapacityStarting();
  void ScaleDown();

  // The work-aware profile: the queued work against the rates (policy_work_aware.cpp).
  void SizeToWork();
  Duration Patience() const;
  Duration DrainTarget() const;
  bool EnableForWaitingClasses(double target_s);
  void ReportTargetWaitMissed();
  WorkCapacity MeasureWorkCapacity() const;
  QueuedWork SumQueuedWork() const;
  bool EnableForQueuedWork(WorkCapacity& capacity, const QueuedWork& work, double needed);
  void EnableForWork(std::size_t i, JobClass job_class, double work_s, double needed, double rate);
  double Rate(std::size_t i) const;
  void ReleaseSpare(double rate, int free, int jobs, double keep_rate, double work_s);
  std::vector<std::size_t> SpareWorkers() const;
  void ReleaseWorker(std::size_t i, double rate, double work_s);
  bool OnlyServer(std::size_t i) const;

  const Signals& signals_;
  const TimePoint now_;
  const PoolConfig& config_;
  Decision decision_;
  std::vector<const WorkerStatus*> status_;  // per record; nullptr when not in the signals
  std::vector<bool> eligible_;
  std::vector<bool> starting_;  // ACTIVE, not yet taking jobs: capacity to come
  std::vector<Bucket> buckets_;
  bool waits_for_starting_ = false;
  const Bucket* wake_for_ = nullptr;  // the class a design wake is for, when not gated
  std::vector<bool> enabled_now_;     // enabled by this cycle's sizing
  int candidate_said_ = 0;            // reasons about single candidates said this cycle
  int work_said_ = 0;                 // sizing reasons said this cycle
  bool probe_asked_ = false;
};

}  // namespace mc::pool::internal
