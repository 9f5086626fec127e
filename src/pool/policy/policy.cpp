#include "pool/policy/policy.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "pool/policy/gates.h"
#include "pool/policy/pressure.h"
#include "pool/policy/weights.h"
#include "pool/policy/work.h"

namespace mc::pool {

namespace {

// At most this many reasons about single candidates per cycle, so that a pool of ten
// thousand workers still yields a page a person can read.
constexpr int kCandidateReasonsPerCycle = 3;

bool IsFault(AdmissionState state) {
  return state == AdmissionState::kGpuUnavailable || state == AdmissionState::kThermalThrottled;
}

bool IsServing(AdmissionState state) {
  return state == AdmissionState::kAvailable || state == AdmissionState::kBusy;
}

// Pending jobs of one need: how many, the oldest, their work, and who can serve them.
struct Bucket {
  JobNeed need;
  int count = 0;
  int waited = 0;  // pending for `sizing.enable_after` or longer
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

// Cycle is one run of the policy; each step is one rule of docs/pool/design.md, in the order the
// rules apply: faults first, since they bypass everything, then the queue.
class Cycle {
 public:
  Cycle(PoolState state, const Signals& signals, TimePoint now, const PoolConfig& config)
      : signals_(signals), now_(now), config_(config) {
    decision_.state = std::move(state);
  }

  Decision Run() {
    MatchWorkers();
    DetectFaultsAndLearn();
    DisableVendors();
    SettleTransitions();
    MeasurePressure();
    if (HoldOnLostQueue()) return std::move(decision_);
    UpdateWindows();
    ShiftSessions();
    if (EnsureMinActive()) return std::move(decision_);
    if (config_.profile == PolicyProfile::kWorkAware) {
      SizeToWork();
    } else {
      if (decision_.pressure >= config_.hysteresis.up_threshold) {
        ScaleUp();
      } else if (decision_.pressure <= config_.hysteresis.down_threshold) {
        ScaleDown();
        Sleep();
      } else if (decision_.demand > 0) {
        Say(MakeReason(
            ReasonCode::kPressureBelowUp, "",
            {{"p", P()}, {"threshold", FormatPressure(config_.hysteresis.up_threshold)}}));
      }
    }
    return std::move(decision_);
  }

 private:
  PoolState& state() { return decision_.state; }
  std::string P() const { return FormatPressure(decision_.pressure); }
  void Say(Reason reason) { decision_.reasons.push_back(std::move(reason)); }
  void Act(ActionKind kind, const WorkerRecord& record, ReasonCode reason, int concurrency = 0,
           ClassMask classes = kEveryClass) {
    decision_.actions.push_back(Action{.kind = kind,
                                       .worker = record.name,
                                       .concurrency = concurrency,
                                       .classes = classes,
                                       .reason = reason});
  }
  void Enter(WorkerRecord& record, ManagerState next) {
    record.state = next;
    record.since = now_;
    record.idle_since.reset();
    if (next != ManagerState::kActive) record.small_jobs_shifted = false;
  }

  const WorkerStatus* Readable(std::size_t i) const {
    const WorkerStatus* status = status_[i];
    return status && status->readable ? status : nullptr;
  }
  bool VendorDisabled(const WorkerStatus& status) const {
    const auto& disabled = config_.vendors.disabled;
    return std::find(disabled.begin(), disabled.end(), status.vendor) != disabled.end();
  }
  double Weight(const WorkerRecord& record, JobClass job_class) const {
    return ShrunkWeight(record.weights[Index(job_class)], job_class, config_.weights);
  }
  double MeanWeight(const WorkerRecord& record) const {
    double sum = 0;
    for (JobClass job_class : kAllJobClasses) sum += Weight(record, job_class);
    return sum / kJobClassCount;
  }
  // A SPARE or WARM worker that could be promoted, probe aside.
  bool IsCandidate(std::size_t i) const {
    const WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = Readable(i);
    return (record.state == ManagerState::kSpare || record.state == ManagerState::kWarm) &&
           status && !IsFault(status->state) && !VendorDisabled(*status);
  }
  const PoolState& state() const { return decision_.state; }

  // Every worker in the signals has a record; one not seen before joins as SPARE.
  void MatchWorkers() {
    std::vector<WorkerRecord>& workers = state().workers;
    status_.assign(workers.size(), nullptr);
    // The service and the simulator list the workers in the order of the records, so the
    // common case needs no look-up by name.
    std::size_t in_order = 0;
    while (in_order < workers.size() && in_order < signals_.workers.size() &&
           workers[in_order].name == signals_.workers[in_order].name) {
      status_[in_order] = &signals_.workers[in_order];
      ++in_order;
    }
    if (in_order < signals_.workers.size()) {
      workers.reserve(workers.size() + signals_.workers.size());
      std::unordered_map<std::string_view, std::size_t> index;
      index.reserve(workers.size() * 2);
      for (std::size_t i = 0; i < workers.size(); ++i) index.emplace(workers[i].name, i);
      for (std::size_t k = in_order; k < signals_.workers.size(); ++k) {
        const WorkerStatus& status = signals_.workers[k];
        auto found = index.find(status.name);
        if (found != index.end()) {
          status_[found->second] = &status;
          continue;
        }
        WorkerRecord record;
        record.name = status.name;
        record.since = now_;
        record.state = status.readable ? ManagerState::kSpare : ManagerState::kCold;
        if (status.readable) Say(MakeReason(ReasonCode::kJoined, record.name, {}));
        workers.push_back(std::move(record));
        index.emplace(workers.back().name, workers.size() - 1);
        status_.push_back(&status);
      }
    }
    eligible_.assign(workers.size(), false);
    enabled_now_.assign(workers.size(), false);
  }

  // The failure fast path: a fault drains at once, whatever the pressure; repeated faults
  // send the worker to COOLDOWN. Completed jobs with evidence feed the learned weights.
  void DetectFaultsAndLearn() {
    int unreadable_said = 0;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = Readable(i);
      if (!status) {
        if (record.state != ManagerState::kCold && record.state != ManagerState::kSpare &&
            unreadable_said++ < kCandidateReasonsPerCycle) {
          Say(MakeReason(ReasonCode::kStatusUnreadable, record.name, {}));
        }
        record.idle_since.reset();
        continue;
      }
      const bool seen = record.jobs_completed_seen >= 0;
      const bool completed = seen && status->jobs_completed > record.jobs_completed_seen;
      const bool failed = seen && status->jobs_failed > record.jobs_failed_seen;
      record.jobs_completed_seen = status->jobs_completed;
      record.jobs_failed_seen = status->jobs_failed;
      const bool evidence_failed = status->hw_evidence_ok == false && (completed || failed);
      if (completed && status->last_job && !evidence_failed) {
        const LastJob& job = *status->last_job;
        ObserveJob(record.weights[Index(job.job_class)], job.output_pixel_rate_mpx_s, job.job_class,
                   config_.weights);
      }

      std::string fault;
      if (status->state == AdmissionState::kGpuUnavailable) fault = "GPU_UNAVAILABLE";
      if (status->state == AdmissionState::kThermalThrottled) fault = "THERMAL_THROTTLED";
      if (evidence_failed) fault = "a job finished without hardware evidence";
      if (fault.empty()) continue;

      const bool serving =
          record.state == ManagerState::kActive || record.state == ManagerState::kWarm ||
          (record.state == ManagerState::kDraining && record.drain_cause == DrainCause::kScaleDown);
      const bool draining_for_fault =
          record.state == ManagerState::kDraining && record.drain_cause == DrainCause::kFault;
      // A fault that persists is one fault, counted when first seen; a further job without
      // evidence is a further fault.
      if (!serving && !(draining_for_fault && evidence_failed)) continue;
      const bool was_active = record.state == ManagerState::kActive;
      auto& failures = record.failures;
      failures.erase(
          std::remove_if(failures.begin(), failures.end(),
                         [&](TimePoint at) { return now_ - at > config_.failure.failure_window; }),
          failures.end());
      failures.push_back(now_);
      if (static_cast<int>(failures.size()) >= config_.failure.failures_to_cooldown) {
        Enter(record, ManagerState::kCooldown);
        record.cooldown_until = now_ + config_.failure.cooldown;
        record.drain_cause = DrainCause::kFault;
        if (was_active) Act(ActionKind::kDrain, record, ReasonCode::kCooldown);
        Say(MakeReason(ReasonCode::kCooldown, record.name,
                       {{"until", FormatDuration(config_.failure.cooldown) + " from now"},
                        {"count", std::to_string(failures.size())},
                        {"window", FormatDuration(config_.failure.failure_window)}}));
      } else if (!draining_for_fault) {
        Enter(record, ManagerState::kDraining);
        record.drain_cause = DrainCause::kFault;
        if (was_active) Act(ActionKind::kDrain, record, ReasonCode::kFaultDrain);
        Say(MakeReason(ReasonCode::kFaultDrain, record.name, {{"fault", fault}}));
      }
    }
  }

  // Draining workers that are empty rest as SPARE; cooldowns end; woken boxes arrive.
  void SettleTransitions() {
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = Readable(i);
      auto& wakes = record.wakes;
      wakes.erase(std::remove_if(wakes.begin(), wakes.end(),
                                 [&](TimePoint at) { return now_ - at >= Hours(24); }),
                  wakes.end());
      const bool probe_green = status && status->probe_ok &&
                               status->probe_age < config_.hysteresis.probe_max_age &&
                               !IsFault(status->state);
      switch (record.state) {
        case ManagerState::kDraining:
          if (status && status->active_jobs == 0) {
            Enter(record, ManagerState::kSpare);
            record.drain_cause = DrainCause::kNone;
            Say(MakeReason(ReasonCode::kDrained, record.name, {}));
          }
          break;
        case ManagerState::kCooldown:
          if (record.cooldown_until && now_ >= *record.cooldown_until && status &&
              status->active_jobs == 0 && probe_green) {
            Enter(record, ManagerState::kSpare);
            record.drain_cause = DrainCause::kNone;
            record.failures.clear();
            record.cooldown_until.reset();
            Say(MakeReason(ReasonCode::kCooldownOver, record.name, {}));
          }
          break;
        case ManagerState::kCold:
          if (status && probe_green) {
            Enter(record, ManagerState::kSpare);
            record.wake_started.reset();
            Say(MakeReason(ReasonCode::kAwake, record.name, {}));
          } else if (record.wake_started &&
                     now_ - *record.wake_started > config_.wake.boot_timeout) {
            record.wake_started.reset();
            Say(MakeReason(ReasonCode::kWakeTimedOut, record.name,
                           {{"timeout", FormatDuration(config_.wake.boot_timeout)}}));
          }
          break;
        case ManagerState::kActive:
          if (status && status->active_jobs == 0) {
            if (!record.idle_since) record.idle_since = now_;
          } else {
            record.idle_since.reset();
          }
          break;
        case ManagerState::kSpare:
        case ManagerState::kWarm:
          // A worker that admits jobs on its own (restarted, which starts it AVAILABLE, or
          // enabled by hand) is drained back to what the pool holds it as: the pool, not the
          // worker, decides who takes jobs. A drain interrupts nothing.
          if (status && IsServing(status->state)) {
            Act(ActionKind::kDrain, record, ReasonCode::kAdmissionReconciled);
            Say(MakeReason(ReasonCode::kAdmissionReconciled, record.name,
                           {{"state", std::string(ManagerStateName(record.state))}}));
          }
          break;
      }
    }
  }

  // `vendor_disabled` drains every ACTIVE worker of the vendor at once; its SPARE and WARM
  // workers are no longer candidates (IsCandidate).
  void DisableVendors() {
    if (config_.vendors.disabled.empty()) return;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = status_[i];
      if (!status || record.state != ManagerState::kActive || !VendorDisabled(*status)) continue;
      Enter(record, ManagerState::kDraining);
      record.drain_cause = DrainCause::kVendorDisabled;
      Act(ActionKind::kDrain, record, ReasonCode::kVendorDisabled);
      Say(MakeReason(ReasonCode::kVendorDisabled, record.name, {{"vendor", status->vendor}}));
    }
  }

  // P over the workers eligible for each class: a class's pending jobs against the slots of the
  // ACTIVE workers that pass its gates, those still starting included, and its oldest job's age;
  // P is the highest of the classes'. A class no worker of the pool could ever run is reported
  // and counts for nothing, so that one job nobody can encode keeps nobody awake.
  void MeasurePressure() {
    int slots = 0;
    starting_.assign(state().workers.size(), false);
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerStatus* status = Readable(i);
      const bool active = state().workers[i].state == ManagerState::kActive && status &&
                          !VendorDisabled(*status) && !IsFault(status->state);
      eligible_[i] = active && IsServing(status->state);
      starting_[i] = active && status->state == AdmissionState::kDrained;
      if (eligible_[i]) slots += std::max(0, status->concurrency);
    }
    for (const PendingJob& job : signals_.queue.pending) {
      const JobNeed need = NeedOf(job.shape, config_.gates);
      auto bucket = std::find_if(buckets_.begin(), buckets_.end(),
                                 [&](const Bucket& b) { return b.need == need; });
      if (bucket == buckets_.end()) bucket = buckets_.insert(buckets_.end(), Bucket{need});
      ++bucket->count;
      bucket->waited += job.age >= config_.sizing.enable_after;
      bucket->oldest = std::max(bucket->oldest, job.age);
      bucket->work_s += ReferenceEncodeSeconds(job.shape);
      bucket->to_come_s += ChildrenOf(job.type, job.shape).seconds;
    }
    int demand = 0;
    for (Bucket& bucket : buckets_) {
      for (std::size_t i = 0; i < state().workers.size(); ++i) {
        if (!eligible_[i] && !starting_[i]) continue;
        const WorkerStatus& status = *status_[i];
        if (!PassesHardGates(bucket.need, status)) continue;
        bucket.active_hard = true;
        if (!Counts(i, bucket.need)) continue;
        const int concurrency = std::max(1, status.concurrency);
        if (eligible_[i]) {
          bucket.slots += concurrency;
        } else {
          bucket.starting_slots += concurrency;
          ++bucket.starting_workers;
        }
      }
      bucket.servable = bucket.slots + bucket.starting_slots > 0 || AnyWorkerCould(bucket.need);
      const std::string words = GateWords(bucket.need, config_.gates);
      const std::string class_name(JobClassName(bucket.need.job_class));
      const std::string count = std::to_string(bucket.count);
      if (!bucket.servable) {
        Say(MakeReason(ReasonCode::kClassUnservable, "",
                       {{"class", class_name}, {"count", count}, {"gates", words}}));
        continue;
      }
      if (bucket.Waiting()) {
        Say(MakeReason(ReasonCode::kClassGated, "",
                       {{"class", class_name}, {"count", count}, {"gates", words}}));
      } else if (bucket.slots == 0) {
        waits_for_starting_ = true;
        Say(MakeReason(ReasonCode::kClassStarting, "",
                       {{"class", class_name},
                        {"count", count},
                        {"workers", std::to_string(bucket.starting_workers)}}));
      }
      bucket.pressure = PressureIndex(bucket.count, bucket.slots + bucket.starting_slots,
                                      bucket.oldest, config_.pressure);
      demand += bucket.count;
      decision_.pressure = std::max(decision_.pressure, bucket.pressure);
    }
    decision_.capacity_slots = slots;
    decision_.demand = demand;
  }

  // Whether some worker of the pool could run a job of `need` at all: its hard gates, judged
  // by its status, or by the inventory for a box that sleeps. One that is busy, drained, faulty
  // or in cooldown counts: the job waits for it rather than for nothing.
  bool AnyWorkerCould(const JobNeed& need) const {
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerStatus* status = status_[i];
      if (!status || VendorDisabled(*status)) continue;
      const bool cold_box = state().workers[i].state == ManagerState::kCold && status->wakeable;
      if ((status->readable || cold_box) && PassesHardGates(need, *status)) return true;
    }
    return false;
  }

  // Whether candidate `i` can serve the class `waiting` needs a worker for: by its gates, or,
  // where no ACTIVE worker even passes the hard gates, by those alone (a soft gate that no
  // worker passes must not leave the job to nobody).
  bool Serves(const Bucket& waiting, std::size_t i) const {
    if (Counts(i, waiting.need)) return true;
    return !waiting.active_hard && PassesHardGates(waiting.need, *status_[i]);
  }

  static bool IsSmall(JobClass job_class) {
    return job_class == JobClass::kS || job_class == JobClass::kM;
  }

  // Whether worker `i` counts as capacity for `need`: it passes the need's gates, and it is not
  // an NVIDIA worker whose S and M jobs are shifted to VA-API (its gate takes none of them).
  bool Counts(std::size_t i, const JobNeed& need) const {
    const WorkerRecord& record = state().workers[i];
    if (IsSmall(need.job_class) && record.small_jobs_shifted) return false;
    return PassesGates(need, *status_[i], Weight(record, need.job_class), config_.gates);
  }

  // With no job list to trust, the manager holds: it neither promotes nor demotes, and the
  // windows start again once the list is back.
  bool HoldOnLostQueue() {
    const QueueSignal& queue = signals_.queue;
    const bool lost = !queue.read_ok || queue.data_age > config_.queue.stale_after;
    if (!lost) {
      state().queue_lost_since.reset();
      return false;
    }
    if (!state().queue_lost_since) state().queue_lost_since = now_ - queue.data_age;
    state().high_since.reset();
    state().low_since.reset();
    state().wake_since.reset();
    Say(MakeReason(ReasonCode::kQueueLost, "",
                   {{"how", queue.read_ok ? "stale" : "failing"},
                    {"age", FormatDuration(now_ - *state().queue_lost_since)}}));
    return true;
  }

  void UpdateWindows() {
    const double p = decision_.pressure;
    const auto track = [&](std::optional<TimePoint>& since, bool holds) {
      if (!holds)
        since.reset();
      else if (!since)
        since = now_;
    };
    track(state().high_since, p >= config_.hysteresis.up_threshold);
    // A job waiting for a worker that is starting is not low pressure, whatever P reads.
    track(state().low_since, p <= config_.hysteresis.down_threshold && !waits_for_starting_);
    track(state().wake_since, p >= config_.wake.pressure);
  }

  // NVENC near its session cap hands S and M jobs to VA-API workers, when there are any.
  void ShiftSessions() {
    bool vaapi_present = false;
    for (std::size_t i = 0; i < state().workers.size() && !vaapi_present; ++i) {
      const WorkerStatus* status = Readable(i);
      vaapi_present = status && status->vendor == "intel" && (eligible_[i] || IsCandidate(i));
    }
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = Readable(i);
      if (!eligible_[i] || status->vendor != "nvidia" || status->sessions_cap <= 0) continue;
      const int limit = status->sessions_cap - config_.vendors.nvenc_session_reserve;
      const std::string active = std::to_string(status->sessions_active);
      const std::string cap = std::to_string(status->sessions_cap);
      if (!record.small_jobs_shifted && status->sessions_active >= limit && vaapi_present) {
        // The capacity measured this cycle loses the worker's S and M slots at once.
        for (Bucket& bucket : buckets_) {
          if (IsSmall(bucket.need.job_class) && Counts(i, bucket.need))
            bucket.slots -= std::max(1, status->concurrency);
        }
        record.small_jobs_shifted = true;
        Act(ActionKind::kSetClasses, record, ReasonCode::kSessionShift, 0,
            Bit(JobClass::kL) | Bit(JobClass::kXL));
        Say(MakeReason(ReasonCode::kSessionShift, record.name, {{"active", active}, {"cap", cap}}));
      } else if (record.small_jobs_shifted && status->sessions_active < limit - 1) {
        record.small_jobs_shifted = false;
        Act(ActionKind::kSetClasses, record, ReasonCode::kSessionShiftOver, 0, kEveryClass);
        Say(MakeReason(ReasonCode::kSessionShiftOver, record.name,
                       {{"active", active}, {"cap", cap}}));
      }
    }
  }

  int CountActive() const {
    return static_cast<int>(std::count_if(
        state().workers.begin(), state().workers.end(),
        [](const WorkerRecord& record) { return record.state == ManagerState::kActive; }));
  }

  bool SpacingAllows() {
    const auto& last = state().last_promotion;
    if (!last || now_ - *last >= config_.hysteresis.promotion_spacing) return true;
    Say(MakeReason(ReasonCode::kPromotionSpacing, "",
                   {{"since", FormatDuration(now_ - *last)},
                    {"needed", FormatDuration(config_.hysteresis.promotion_spacing)}}));
    return false;
  }

  // Below min_active the pool promotes whatever the pressure, still probe-gated and spaced.
  // Returns whether the rule applied, so that no other scaling runs this cycle.
  bool EnsureMinActive() {
    const int active = CountActive();
    if (active >= config_.hysteresis.min_active) return false;
    if (!SpacingAllows()) return true;
    if (!Promote(ReasonCode::kBelowMinActive, active)) {
      Say(MakeReason(ReasonCode::kNoCandidate, "",
                     {{"p", P()}, {"detail", " to reach min_active"}}));
    }
    return true;
  }

  // The class that most needs a worker brought in (no ACTIVE or starting one passes its gates),
  // if any.
  const Bucket* GatedBucket() const {
    const Bucket* gated = nullptr;
    for (const Bucket& bucket : buckets_) {
      if (bucket.Waiting() && (!gated || bucket.count > gated->count)) gated = &bucket;
    }
    return gated;
  }

  JobClass DominantClass() const {
    const Bucket* top = nullptr;
    for (const Bucket& bucket : buckets_) {
      if (bucket.servable && (!top || bucket.count > top->count)) top = &bucket;
    }
    return top ? top->need.job_class : JobClass::kS;
  }

  // The SPARE and WARM workers, best first for `job_class`: the highest weight; at equal weight
  // (as before any job is learned) WARM before SPARE, then the faster realtime factor. With
  // `waiting`, only those that serve it.
  std::vector<std::pair<double, std::size_t>> SortedCandidates(const Bucket* waiting,
                                                               JobClass job_class) const {
    std::vector<std::pair<double, std::size_t>> candidates;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      if (!IsCandidate(i)) continue;
      if (waiting && !Serves(*waiting, i)) continue;
      candidates.emplace_back(Weight(state().workers[i], job_class), i);
    }
    std::sort(candidates.begin(), candidates.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first > b.first;
      const bool a_warm = state().workers[a.second].state == ManagerState::kWarm;
      const bool b_warm = state().workers[b.second].state == ManagerState::kWarm;
      if (a_warm != b_warm) return a_warm;
      const double a_speed = status_[a.second]->realtime_factor_ewma;
      const double b_speed = status_[b.second]->realtime_factor_ewma;
      if (a_speed != b_speed) return a_speed > b_speed;
      return state().workers[a.second].name < state().workers[b.second].name;
    });
    return candidates;
  }

  // Whether candidate `i` may be promoted now: only with a fresh, green probe. A stale one is
  // passed over and the first of them asked to probe.
  bool ProbeAllows(std::size_t i) {
    const WorkerRecord& record = state().workers[i];
    const WorkerStatus& status = *status_[i];
    if (!status.probe_ok) {
      if (candidate_said_++ < kCandidateReasonsPerCycle) {
        Say(MakeReason(ReasonCode::kProbeRed, record.name, {}));
      }
      return false;
    }
    if (status.probe_age < config_.hysteresis.probe_max_age) return true;
    if (candidate_said_++ < kCandidateReasonsPerCycle) {
      Say(MakeReason(ReasonCode::kProbeStale, record.name,
                     {{"age", FormatDuration(status.probe_age)},
                      {"max", FormatDuration(config_.hysteresis.probe_max_age)}}));
    }
    if (!probe_asked_) {
      probe_asked_ = true;
      Act(ActionKind::kProbe, record, ReasonCode::kProbeRequested);
      Say(MakeReason(ReasonCode::kProbeRequested, record.name,
                     {{"age", FormatDuration(status.probe_age)}}));
    }
    return false;
  }

  // Promote the highest-weight SPARE or WARM worker whose probe is fresh and green, passing
  // the gates of a class no ACTIVE worker serves when there is one.
  bool Promote(ReasonCode reason, int active_before) {
    const Bucket* gated = GatedBucket();
    const JobClass job_class = gated ? gated->need.job_class : DominantClass();
    for (const auto& [weight, i] : SortedCandidates(gated, job_class)) {
      if (!ProbeAllows(i)) continue;
      WorkerRecord& record = state().workers[i];
      const int concurrency = std::max(1, status_[i]->concurrency);
      Enter(record, ManagerState::kActive);
      state().last_promotion = now_;
      Act(ActionKind::kEnable, record, reason, concurrency);
      const std::string sustained =
          state().high_since ? FormatDuration(now_ - *state().high_since) : "0s";
      Say(MakeReason(reason, record.name,
                     {{"concurrency", std::to_string(concurrency)},
                      {"p", P()},
                      {"threshold", FormatPressure(config_.hysteresis.up_threshold)},
                      {"sustained", sustained},
                      {"weight", FormatPressure(weight)},
                      {"class", std::string(JobClassName(job_class))},
                      {"active", std::to_string(active_before)},
                      {"min", std::to_string(config_.hysteresis.min_active)}}));
      return true;
    }
    return false;
  }

  // HeldFor is whether P has stayed past `threshold` since `since` for `needed`; when not
  // yet, it says how long so far with `code`.
  bool HeldFor(ReasonCode code, TimePoint since, Duration needed, double threshold) {
    const Duration sustained = now_ - since;
    if (sustained >= needed) return true;
    Say(MakeReason(code, "",
                   {{"p", P()},
                    {"threshold", FormatPressure(threshold)},
                    {"sustained", FormatDuration(sustained)},
                    {"needed", FormatDuration(needed)}}));
    return false;
  }

  void ScaleUp() {
    if (!HeldFor(ReasonCode::kPressureNotSustained, *state().high_since,
                 config_.hysteresis.up_window * config_.hysteresis.up_windows,
                 config_.hysteresis.up_threshold)) {
      return;
    }
    if (!SpacingAllows()) return;
    if (Promote(ReasonCode::kPromoted, CountActive())) return;
    Say(MakeReason(ReasonCode::kNoCandidate, "", {{"p", P()}, {"detail", ""}}));
    Wake();
  }

  // The Wake-on-LAN tier: the last resort, since a boot takes minutes.
  // The design's trigger is P held high for `wake.sustain`; the work-aware one (`busy` given) is
  // the work queued and to come keeping every worker that is up busy for longer than
  // `sizing.wake_after_work`. The spacing, the wakes in progress, the daily cap and the battery
  // guard both.
  void Wake(std::optional<Duration> busy = std::nullopt, double work_s = 0) {
    if (!busy) {
      if (decision_.pressure < config_.wake.pressure) return;
      if (!HeldFor(ReasonCode::kWakeNotSustained, *state().wake_since, config_.wake.sustain,
                   config_.wake.pressure)) {
        return;
      }
    } else if (*busy < config_.sizing.wake_after_work) {
      return;
    }
    const Duration sustained = state().wake_since ? now_ - *state().wake_since : Seconds(0);
    const Bucket* gated = GatedBucket();
    int spare_left = 0;
    int in_progress = 0;
    // A SPARE worker whose probe failed cannot be promoted, so it does not hold a wake back; nor
    // does one that cannot serve the class the wake is for.
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      spare_left += IsCandidate(i) && status_[i]->probe_ok && (!gated || Serves(*gated, i));
      in_progress += state().workers[i].wake_started.has_value();
    }
    if (spare_left > 0) {
      Say(MakeReason(ReasonCode::kWakeSpareLeft, "", {{"count", std::to_string(spare_left)}}));
      return;
    }
    if (in_progress >= config_.wake.max_concurrent) {
      Say(MakeReason(ReasonCode::kWakeConcurrent, "",
                     {{"count", std::to_string(in_progress)},
                      {"max", std::to_string(config_.wake.max_concurrent)}}));
      return;
    }
    const auto& last = state().last_wake;
    if (last && now_ - *last < config_.wake.spacing) {
      Say(MakeReason(ReasonCode::kWakeSpacing, "",
                     {{"since", FormatDuration(now_ - *last)},
                      {"needed", FormatDuration(config_.wake.spacing)}}));
      return;
    }
    std::vector<std::pair<double, std::size_t>> boxes;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = status_[i];
      if (record.state != ManagerState::kCold || record.wake_started || !status ||
          !status->wakeable || VendorDisabled(*status)) {
        continue;
      }
      if (gated && !PassesHardGates(gated->need, *status)) continue;
      boxes.emplace_back(MeanWeight(record), i);
    }
    std::sort(boxes.begin(), boxes.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first > b.first;
      return state().workers[a.second].name < state().workers[b.second].name;
    });
    for (const auto& [weight, i] : boxes) {
      WorkerRecord& record = state().workers[i];
      if (status_[i]->on_battery) {
        Say(MakeReason(ReasonCode::kWakeOnBattery, record.name, {}));
        continue;
      }
      if (static_cast<int>(record.wakes.size()) >= config_.wake.max_per_day) {
        Say(MakeReason(ReasonCode::kWakeDailyCap, record.name,
                       {{"count", std::to_string(record.wakes.size())},
                        {"max", std::to_string(config_.wake.max_per_day)}}));
        continue;
      }
      record.wake_started = now_;
      record.wakes.push_back(now_);
      state().last_wake = now_;
      if (busy) {
        Act(ActionKind::kWake, record, ReasonCode::kWorkWoken);
        Say(MakeReason(ReasonCode::kWorkWoken, record.name,
                       {{"work", FormatDuration(Seconds(work_s))},
                        {"busy", FormatDuration(*busy)},
                        {"outlast", FormatDuration(config_.sizing.wake_after_work)}}));
        return;
      }
      Act(ActionKind::kWake, record, ReasonCode::kWoken);
      Say(MakeReason(ReasonCode::kWoken, record.name,
                     {{"p", P()},
                      {"threshold", FormatPressure(config_.wake.pressure)},
                      {"sustained", FormatDuration(sustained)}}));
      return;
    }
    Say(MakeReason(ReasonCode::kWakeNoBox, "", {}));
  }

  // Demote the lowest-weight idle ACTIVE worker once pressure has stayed low; a demotion is a
  // drain, so a job that started meanwhile still finishes.
  void ScaleDown() {
    const int active = CountActive();
    const Duration sustained = now_ - *state().low_since;
    const Duration needed = config_.hysteresis.down_sustain;
    if (active <= config_.hysteresis.min_active) {
      if (active > 0 && sustained >= needed) {
        Say(MakeReason(ReasonCode::kMinActive, "",
                       {{"active", std::to_string(active)},
                        {"min", std::to_string(config_.hysteresis.min_active)}}));
      }
      return;
    }
    if (!HeldFor(ReasonCode::kDemotionNotSustained, *state().low_since, needed,
                 config_.hysteresis.down_threshold)) {
      return;
    }
    std::optional<std::size_t> pick;
    Duration longest_idle = Seconds(0);
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = Readable(i);
      if (record.state != ManagerState::kActive || !status || status->active_jobs != 0 ||
          !record.idle_since) {
        continue;
      }
      const Duration idle = now_ - *record.idle_since;
      longest_idle = std::max(longest_idle, idle);
      if (idle < config_.hysteresis.idle_before_demote) continue;
      if (!pick || Cheaper(i, *pick)) pick = i;
    }
    if (!pick) {
      Say(MakeReason(ReasonCode::kDemotionWaitsIdle, "",
                     {{"needed", FormatDuration(config_.hysteresis.idle_before_demote)},
                      {"idle", FormatDuration(longest_idle)}}));
      return;
    }
    WorkerRecord& record = state().workers[*pick];
    const Duration idle = now_ - *record.idle_since;
    const double weight = MeanWeight(record);
    Enter(record, ManagerState::kDraining);
    record.drain_cause = DrainCause::kScaleDown;
    Act(ActionKind::kDrain, record, ReasonCode::kDemoted);
    Say(MakeReason(ReasonCode::kDemoted, record.name,
                   {{"p", P()},
                    {"threshold", FormatPressure(config_.hysteresis.down_threshold)},
                    {"sustained", FormatDuration(sustained)},
                    {"idle", FormatDuration(idle)},
                    {"weight", FormatPressure(weight)}}));
  }

  // A worker's encode rate, in multiples of real time at 1080p30: its slots × its realtime
  // factor.
  double Rate(std::size_t i) const {
    const WorkerStatus& status = *status_[i];
    const double speed = status.realtime_factor_ewma > 0 ? status.realtime_factor_ewma
                                                         : config_.sizing.default_speed;
    return std::max(1, status.concurrency) * speed;
  }

  // The work-aware profile: every pending job gets a free slot, and the pool the encode rate
  // that finishes the queued work within `sizing.target_drain`, brought in at once, since
  // enabling a worker whose service is up costs seconds; a worker goes as soon as the others
  // would do as well without it. Only the expensive moves keep their guards: a box is woken for
  // work queued and to come that outlasts `sizing.wake_after_work`, with the wake tier's
  // spacing and caps; a suspend keeps its window. Nothing is ever interrupted: a release is a
  // drain, and a draining worker finishes its jobs.
  void SizeToWork() {
    const double target_s = config_.sizing.target_drain.count();
    const std::string target = FormatDuration(config_.sizing.target_drain);
    bool unmet = false;
    bool class_unmet = false;
    // A class no ACTIVE or starting worker serves gets one that does, at once.
    for (Bucket& bucket : buckets_) {
      if (!bucket.Waiting()) continue;
      bool found = false;
      for (const auto& [weight, i] : SortedCandidates(&bucket, bucket.need.job_class)) {
        if (!ProbeAllows(i)) continue;
        EnableForWork(i, bucket.need.job_class, bucket.work_s, bucket.work_s / target_s, 0);
        found = true;
        break;
      }
      class_unmet = class_unmet || !found;
    }
    // The ACTIVE workers' rate, their slots, and the slots free now or once started.
    double rate = 0;
    int slots = 0;
    int free = 0;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      if (!eligible_[i] && !starting_[i] && !enabled_now_[i]) continue;
      const int concurrency = std::max(1, status_[i]->concurrency);
      rate += Rate(i);
      slots += concurrency;
      free += eligible_[i] ? std::max(0, concurrency - status_[i]->active_jobs) : concurrency;
    }
    const int busy = slots - free;
    double work_s = 0;
    double to_come_s = 0;
    int jobs = 0;
    int waited = 0;
    for (const Bucket& bucket : buckets_) {
      if (!bucket.servable) continue;
      work_s += bucket.work_s;
      to_come_s += bucket.to_come_s;
      jobs += bucket.count;
      waited += bucket.waited;
    }
    // Every job that has waited `sizing.enable_after` gets a slot at once, and the pool gets
    // the rate that finishes the queued work within the target; more slots than jobs finish
    // nothing sooner.
    const double needed = work_s / target_s;
    const auto short_of = [&] { return free < waited || (rate < needed && slots < jobs + busy); };
    if (short_of()) {
      const JobClass job_class = DominantClass();
      for (const auto& [weight, i] : SortedCandidates(nullptr, job_class)) {
        if (!short_of()) break;
        if (enabled_now_[i] || !ProbeAllows(i)) continue;
        EnableForWork(i, job_class, work_s, needed, rate);
        const int concurrency = std::max(1, status_[i]->concurrency);
        rate += Rate(i);
        slots += concurrency;
        free += concurrency;
      }
      unmet = unmet || short_of();
    }
    ReleaseSpare(rate, free, jobs, work_s / target_s, work_s);
    // A class only a box that sleeps can serve wakes it by the design's trigger: P is full
    // for that class, held for `wake.sustain`.
    if (class_unmet) {
      Wake();
    } else if (unmet) {
      Wake(Seconds((work_s + to_come_s) / std::max(rate, 1e-9)), work_s + to_come_s);
    }
    if (decision_.pressure <= config_.hysteresis.down_threshold) Sleep();
  }

  void EnableForWork(std::size_t i, JobClass job_class, double work_s, double needed, double rate) {
    WorkerRecord& record = state().workers[i];
    const int concurrency = std::max(1, status_[i]->concurrency);
    Enter(record, ManagerState::kActive);
    state().last_promotion = now_;
    enabled_now_[i] = true;
    Act(ActionKind::kEnable, record, ReasonCode::kWorkEnabled, concurrency);
    if (work_said_++ >= kCandidateReasonsPerCycle) return;
    Say(MakeReason(ReasonCode::kWorkEnabled, record.name,
                   {{"concurrency", std::to_string(concurrency)},
                    {"work", FormatDuration(Seconds(work_s))},
                    {"class", std::string(JobClassName(job_class))},
                    {"needed", FormatNumber(std::round(needed * 10) / 10)},
                    {"target", FormatDuration(config_.sizing.target_drain)},
                    {"rate", FormatNumber(std::round(rate * 10) / 10)}}));
  }

  // Drains the ACTIVE workers the pool does not need: those idle for `idle_before_release`, and
  // those with a free slot beside their jobs, which finish them and take no more; the fewest
  // jobs first, then the cheapest. Each only if the others keep a free slot per pending job and
  // `keep_rate`, and still serve every class that has a job pending. A drain interrupts nothing.
  void ReleaseSpare(double rate, int free, int jobs, double keep_rate, double work_s) {
    // Each candidate gives up at least one free slot and some rate: with none to spare, none
    // goes, and a deep queue costs no sort of the pool.
    if (free <= jobs || rate <= keep_rate || CountActive() <= config_.hysteresis.min_active) {
      return;
    }
    std::vector<std::size_t> spare;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerRecord& record = state().workers[i];
      if (!eligible_[i]) continue;
      const int jobs_on = status_[i]->active_jobs;
      const bool idle_long = jobs_on == 0 && record.idle_since &&
                             now_ - *record.idle_since >= config_.sizing.idle_before_release;
      const bool part_busy = jobs_on > 0 && jobs_on < std::max(1, status_[i]->concurrency);
      if (idle_long || part_busy) spare.push_back(i);
    }
    std::sort(spare.begin(), spare.end(), [&](std::size_t a, std::size_t b) {
      if (status_[a]->active_jobs != status_[b]->active_jobs) {
        return status_[a]->active_jobs < status_[b]->active_jobs;
      }
      return Cheaper(a, b);
    });
    int active = CountActive();
    for (std::size_t i : spare) {
      if (active <= config_.hysteresis.min_active) return;
      const int concurrency = std::max(1, status_[i]->concurrency);
      const int jobs_on = status_[i]->active_jobs;
      const int free_on = concurrency - jobs_on;
      if (rate - Rate(i) < keep_rate || free - free_on < jobs || OnlyServer(i)) continue;
      WorkerRecord& record = state().workers[i];
      rate -= Rate(i);
      free -= free_on;
      --active;
      for (Bucket& bucket : buckets_) {
        if (bucket.count > 0 && Counts(i, bucket.need)) bucket.slots -= concurrency;
      }
      Enter(record, ManagerState::kDraining);
      record.drain_cause = DrainCause::kScaleDown;
      Act(ActionKind::kDrain, record, ReasonCode::kWorkReleased);
      if (work_said_++ >= kCandidateReasonsPerCycle) continue;
      Say(MakeReason(ReasonCode::kWorkReleased, record.name,
                     {{"jobs", std::to_string(jobs_on)},
                      {"rate", FormatNumber(std::round(rate * 10) / 10)},
                      {"work", FormatDuration(Seconds(work_s))},
                      {"target", FormatDuration(config_.sizing.target_drain)}}));
    }
  }

  // Whether worker `i` is the last ACTIVE one passing the gates of a class with a job pending.
  bool OnlyServer(std::size_t i) const {
    for (const Bucket& bucket : buckets_) {
      if (!bucket.servable || bucket.count == 0) continue;
      const int concurrency = std::max(1, status_[i]->concurrency);
      if (bucket.slots + bucket.starting_slots > concurrency) continue;
      if (Counts(i, bucket.need)) return true;
    }
    return false;
  }

  // Drain order: low ŵ first, then low download rate (the cheapest to warm again).
  bool Cheaper(std::size_t a, std::size_t b) const {
    const double weight_a = MeanWeight(state().workers[a]);
    const double weight_b = MeanWeight(state().workers[b]);
    if (weight_a != weight_b) return weight_a < weight_b;
    if (status_[a]->download_mbps != status_[b]->download_mbps) {
      return status_[a]->download_mbps < status_[b]->download_mbps;
    }
    return state().workers[a].name > state().workers[b].name;
  }

  // A SPARE box that can be woken again and has rested long enough is suspended; one with a
  // job, or on battery, never is.
  void Sleep() {
    if (config_.wake.sleep_after <= Seconds(0)) return;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus* status = Readable(i);
      if (record.state != ManagerState::kSpare || !status || status->active_jobs != 0 ||
          !status->wakeable || status->on_battery ||
          now_ - record.since < config_.wake.sleep_after) {
        continue;
      }
      const Duration idle = now_ - record.since;
      Enter(record, ManagerState::kCold);
      Act(ActionKind::kSuspend, record, ReasonCode::kSuspended);
      Say(MakeReason(ReasonCode::kSuspended, record.name, {{"idle", FormatDuration(idle)}}));
      return;
    }
  }

  const Signals& signals_;
  const TimePoint now_;
  const PoolConfig& config_;
  Decision decision_;
  std::vector<const WorkerStatus*> status_;  // per record; nullptr when not in the signals
  std::vector<bool> eligible_;
  std::vector<bool> starting_;  // ACTIVE, not yet taking jobs: capacity to come
  std::vector<Bucket> buckets_;
  bool waits_for_starting_ = false;
  std::vector<bool> enabled_now_;  // enabled by this cycle's sizing
  int candidate_said_ = 0;         // reasons about single candidates said this cycle
  int work_said_ = 0;              // sizing reasons said this cycle
  bool probe_asked_ = false;
};

}  // namespace

Decision Decide(const PoolState& state, const Signals& signals, TimePoint now,
                const PoolConfig& config) {
  return Cycle(state, signals, now, config).Run();
}

Decision Decide(PoolState&& state, const Signals& signals, TimePoint now,
                const PoolConfig& config) {
  return Cycle(std::move(state), signals, now, config).Run();
}

}  // namespace mc::pool
