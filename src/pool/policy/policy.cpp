#include "pool/policy/policy.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "pool/policy/gates.h"
#include "pool/policy/pressure.h"
#include "pool/policy/weights.h"

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

// Pending jobs of one need: how many, the oldest, and who can serve them.
struct Bucket {
  JobNeed need;
  int count = 0;
  Duration oldest = Seconds(0);
  bool active_can = false;  // some eligible ACTIVE worker passes its gates
  bool pool_can = false;    // some worker of the pool does, or could once promoted or woken
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
    if (!EnsureMinActive()) {
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
    decision_.actions.push_back(Action{kind, record.name, concurrency, classes, reason});
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

  // P over the eligible workers, counting as demand only the jobs some worker of the pool can
  // serve; a job nobody can serve is reported instead.
  void MeasurePressure() {
    int slots = 0;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerStatus* status = Readable(i);
      eligible_[i] = state().workers[i].state == ManagerState::kActive && status &&
                     IsServing(status->state) && !VendorDisabled(*status);
      if (eligible_[i]) slots += std::max(0, status->concurrency);
    }
    for (const PendingJob& job : signals_.queue.pending) {
      const JobNeed need = NeedOf(job.shape, config_.gates);
      auto bucket = std::find_if(buckets_.begin(), buckets_.end(),
                                 [&](const Bucket& b) { return b.need == need; });
      if (bucket == buckets_.end()) bucket = buckets_.insert(buckets_.end(), Bucket{need});
      ++bucket->count;
      bucket->oldest = std::max(bucket->oldest, job.age);
    }
    int demand = 0;
    Duration oldest = Seconds(0);
    for (Bucket& bucket : buckets_) {
      bucket.active_can = AnyPasses(bucket.need, [&](std::size_t i) { return eligible_[i]; });
      bucket.pool_can = bucket.active_can ||
                        AnyPasses(bucket.need, [&](std::size_t i) { return IsCandidate(i); }) ||
                        AnyColdBoxCould(bucket.need);
      const std::string words = GateWords(bucket.need, config_.gates);
      const std::string class_name(JobClassName(bucket.need.job_class));
      if (!bucket.pool_can) {
        Say(MakeReason(
            ReasonCode::kClassUnservable, "",
            {{"class", class_name}, {"count", std::to_string(bucket.count)}, {"gates", words}}));
        continue;
      }
      if (!bucket.active_can) {
        Say(MakeReason(
            ReasonCode::kClassGated, "",
            {{"class", class_name}, {"count", std::to_string(bucket.count)}, {"gates", words}}));
      }
      demand += bucket.count;
      oldest = std::max(oldest, bucket.oldest);
    }
    decision_.capacity_slots = slots;
    decision_.demand = demand;
    decision_.pressure = PressureIndex(demand, slots, oldest, config_.pressure);
  }

  template <typename Filter>
  bool AnyPasses(const JobNeed& need, Filter filter) const {
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      if (!filter(i)) continue;
      const WorkerStatus* status = Readable(i);
      if (!status) continue;
      const WorkerRecord& record = state().workers[i];
      if (PassesGates(need, *status, Weight(record, need.job_class), config_.gates)) return true;
    }
    return false;
  }

  // A COLD box is judged by what its inventory says it can do, since it cannot answer.
  bool AnyColdBoxCould(const JobNeed& need) const {
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      const WorkerStatus* status = status_[i];
      if (state().workers[i].state == ManagerState::kCold && status && status->wakeable &&
          !VendorDisabled(*status) && PassesHardGates(need, *status)) {
        return true;
      }
    }
    return false;
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
    track(state().low_since, p <= config_.hysteresis.down_threshold);
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

  // The bucket that most needs a worker no ACTIVE one provides, if any.
  const Bucket* GatedBucket() const {
    const Bucket* gated = nullptr;
    for (const Bucket& bucket : buckets_) {
      if (bucket.pool_can && !bucket.active_can && (!gated || bucket.count > gated->count)) {
        gated = &bucket;
      }
    }
    return gated;
  }

  JobClass DominantClass() const {
    const Bucket* top = nullptr;
    for (const Bucket& bucket : buckets_) {
      if (bucket.pool_can && (!top || bucket.count > top->count)) top = &bucket;
    }
    return top ? top->need.job_class : JobClass::kS;
  }

  // Promote the highest-weight SPARE or WARM worker whose probe is fresh and green, passing
  // the gates of a class no ACTIVE worker serves when there is one.
  bool Promote(ReasonCode reason, int active_before) {
    const Bucket* gated = GatedBucket();
    const JobClass job_class = gated ? gated->need.job_class : DominantClass();
    std::vector<std::pair<double, std::size_t>> candidates;
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      if (!IsCandidate(i)) continue;
      const double weight = Weight(state().workers[i], job_class);
      if (gated && !PassesGates(gated->need, *status_[i], weight, config_.gates)) continue;
      candidates.emplace_back(weight, i);
    }
    // Equal weights (before any job has been learned, all sit at the prior) fall back on
    // what the status states: WARM before SPARE, then the faster realtime factor.
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
    int said = 0;
    bool probe_asked = false;
    for (const auto& [weight, i] : candidates) {
      WorkerRecord& record = state().workers[i];
      const WorkerStatus& status = *status_[i];
      if (!status.probe_ok) {
        if (said++ < kCandidateReasonsPerCycle)
          Say(MakeReason(ReasonCode::kProbeRed, record.name, {}));
        continue;
      }
      if (status.probe_age >= config_.hysteresis.probe_max_age) {
        if (said++ < kCandidateReasonsPerCycle) {
          Say(MakeReason(ReasonCode::kProbeStale, record.name,
                         {{"age", FormatDuration(status.probe_age)},
                          {"max", FormatDuration(config_.hysteresis.probe_max_age)}}));
        }
        if (!probe_asked) {
          probe_asked = true;
          Act(ActionKind::kProbe, record, ReasonCode::kProbeRequested);
          Say(MakeReason(ReasonCode::kProbeRequested, record.name,
                         {{"age", FormatDuration(status.probe_age)}}));
        }
        continue;
      }
      Enter(record, ManagerState::kActive);
      state().last_promotion = now_;
      const int concurrency = std::max(1, status.concurrency);
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
  void Wake() {
    if (decision_.pressure < config_.wake.pressure) return;
    if (!HeldFor(ReasonCode::kWakeNotSustained, *state().wake_since, config_.wake.sustain,
                 config_.wake.pressure)) {
      return;
    }
    const Duration sustained = now_ - *state().wake_since;
    int spare_left = 0;
    int in_progress = 0;
    // A SPARE worker whose probe failed cannot be promoted, so it does not hold a wake back.
    for (std::size_t i = 0; i < state().workers.size(); ++i) {
      spare_left += IsCandidate(i) && status_[i]->probe_ok;
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
    const Bucket* gated = GatedBucket();
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
  std::vector<Bucket> buckets_;
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
