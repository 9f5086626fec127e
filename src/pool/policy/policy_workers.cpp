// The rules that move single workers, whatever the profile: faults, transitions, disabled
// vendors and NVENC sessions.
#include <algorithm>
#include <string>

#include "pool/policy/policy_cycle.h"
#include "pool/policy/weights.h"

namespace mc::pool::internal {

namespace {

// The fault a worker shows this cycle, in words; empty when none.
std::string FaultOf(const WorkerStatus& status, bool evidence_failed) {
  std::string fault;
  if (status.state == AdmissionState::kGpuUnavailable) fault = "GPU_UNAVAILABLE";
  if (status.state == AdmissionState::kThermalThrottled) fault = "THERMAL_THROTTLED";
  if (status.state == AdmissionState::kOffline) fault = "OFFLINE";
  if (evidence_failed) fault = "a job finished without hardware evidence";
  return fault;
}

}  // namespace

// The failure fast path: a fault drains at once, whatever the pressure; repeated faults
// send the worker to COOLDOWN. Completed jobs with evidence feed the learned weights.
void Cycle::DetectFaultsAndLearn() {
  int unreadable_said = 0;
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = Readable(i);
    if (!status) {
      ReportUnreadable(record, unreadable_said);
      continue;
    }
    const bool evidence_failed = LearnFromJobs(record, *status);
    const std::string fault = FaultOf(*status, evidence_failed);
    if (!fault.empty()) CountFault(record, fault, evidence_failed);
  }
}

// A worker in service whose status cannot be read is reported, a few a cycle.
void Cycle::ReportUnreadable(WorkerRecord& record, int& said) {
  if (record.state != ManagerState::kCold && record.state != ManagerState::kSpare &&
      said++ < kCandidateReasonsPerCycle) {
    AddReason(MakeReason(ReasonCode::kStatusUnreadable, record.name, {}));
  }
  record.idle_since.reset();
}

// Takes in the worker's job counters; a job completed with evidence feeds its weights.
// Returns whether a job finished without hardware evidence.
bool Cycle::LearnFromJobs(WorkerRecord& record, const WorkerStatus& status) {
  const bool seen = record.jobs_completed_seen >= 0;
  const bool completed = seen && status.jobs_completed > record.jobs_completed_seen;
  const bool failed = seen && status.jobs_failed > record.jobs_failed_seen;
  record.jobs_completed_seen = status.jobs_completed;
  record.jobs_failed_seen = status.jobs_failed;
  const bool evidence_failed = status.hw_evidence_ok == false && (completed || failed);
  if (completed && status.last_job && !evidence_failed) {
    const LastJob& job = *status.last_job;
    ObserveJob(record.weights[Index(job.job_class)], job.output_pixel_rate_mpx_s, job.job_class,
               config_.weights);
  }
  return evidence_failed;
}

// Counts a fault in the worker's window and drains it; enough of them mean COOLDOWN.
void Cycle::CountFault(WorkerRecord& record, const std::string& fault, bool evidence_failed) {
  const bool serving =
      record.state == ManagerState::kActive || record.state == ManagerState::kWarm ||
      (record.state == ManagerState::kDraining && record.drain_cause == DrainCause::kScaleDown);
  const bool draining_for_fault =
      record.state == ManagerState::kDraining && record.drain_cause == DrainCause::kFault;
  // A fault that persists is one fault, counted when first seen; a further job without
  // evidence is a further fault.
  if (!serving && !(draining_for_fault && evidence_failed)) return;
  const bool was_active = record.state == ManagerState::kActive;
  auto& failures = record.failures;
  failures.erase(
      std::remove_if(failures.begin(), failures.end(),
                     [&](TimePoint at) { return now_ - at > config_.failure.failure_window; }),
      failures.end());
  failures.push_back(now_);
  if (static_cast<int>(failures.size()) >= config_.failure.failures_to_cooldown) {
    EnterState(record, ManagerState::kCooldown);
    record.cooldown_until = now_ + config_.failure.cooldown;
    record.drain_cause = DrainCause::kFault;
    if (was_active) AddAction(ActionKind::kDrain, record, ReasonCode::kCooldown);
    AddReason(MakeReason(ReasonCode::kCooldown, record.name,
                         {{"until", FormatDuration(config_.failure.cooldown) + " from now"},
                          {"count", std::to_string(failures.size())},
                          {"window", FormatDuration(config_.failure.failure_window)}}));
  } else if (!draining_for_fault) {
    EnterState(record, ManagerState::kDraining);
    record.drain_cause = DrainCause::kFault;
    if (was_active) AddAction(ActionKind::kDrain, record, ReasonCode::kFaultDrain);
    AddReason(MakeReason(ReasonCode::kFaultDrain, record.name, {{"fault", fault}}));
  }
}

// Draining workers that are empty rest as SPARE; cooldowns end; woken boxes arrive.
void Cycle::SettleTransitions() {
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = Readable(i);
    auto& wakes = record.wakes;
    wakes.erase(std::remove_if(wakes.begin(), wakes.end(),
                               [&](TimePoint at) { return now_ - at >= Hours(24); }),
                wakes.end());
    switch (record.state) {
      case ManagerState::kDraining:
        SettleDraining(record, status);
        break;
      case ManagerState::kCooldown:
        SettleCooldown(record, status);
        break;
      case ManagerState::kCold:
        SettleCold(record, status);
        break;
      case ManagerState::kActive:
        TrackIdle(record, status);
        break;
      case ManagerState::kSpare:
      case ManagerState::kWarm:
        ReconcileAdmission(record, status);
        break;
    }
  }
}

// A probe that passed, recently, on a worker that shows no fault.
bool Cycle::ProbeGreen(const WorkerStatus* status) const {
  return status && status->probe_ok && status->probe_age < config_.hysteresis.probe_max_age &&
         !IsFault(status->state);
}

void Cycle::SettleDraining(WorkerRecord& record, const WorkerStatus* status) {
  if (!status || status->active_jobs != 0) return;
  EnterState(record, ManagerState::kSpare);
  record.drain_cause = DrainCause::kNone;
  AddReason(MakeReason(ReasonCode::kDrained, record.name, {}));
}

void Cycle::SettleCooldown(WorkerRecord& record, const WorkerStatus* status) {
  if (!record.cooldown_until || now_ < *record.cooldown_until || !status ||
      status->active_jobs != 0 || !ProbeGreen(status)) {
    return;
  }
  EnterState(record, ManagerState::kSpare);
  record.drain_cause = DrainCause::kNone;
  record.failures.clear();
  record.cooldown_until.reset();
  AddReason(MakeReason(ReasonCode::kCooldownOver, record.name, {}));
}

void Cycle::SettleCold(WorkerRecord& record, const WorkerStatus* status) {
  if (ProbeGreen(status)) {
    EnterState(record, ManagerState::kSpare);
    record.wake_started.reset();
    AddReason(MakeReason(ReasonCode::kAwake, record.name, {}));
  } else if (record.wake_started && now_ - *record.wake_started > config_.wake.boot_timeout) {
    record.wake_started.reset();
    AddReason(MakeReason(ReasonCode::kWakeTimedOut, record.name,
                         {{"timeout", FormatDuration(config_.wake.boot_timeout)}}));
  }
}

void Cycle::TrackIdle(WorkerRecord& record, const WorkerStatus* status) {
  if (status && status->active_jobs == 0) {
    if (!record.idle_since) record.idle_since = now_;
  } else {
    record.idle_since.reset();
  }
}

// A worker may admit jobs on its own: restarted (it starts AVAILABLE), or enabled by hand.
// It is drained back to what the pool holds it as.
// The pool, not the worker, decides who takes jobs. A drain interrupts nothing.
void Cycle::ReconcileAdmission(WorkerRecord& record, const WorkerStatus* status) {
  if (!status || !IsServing(status->state)) return;
  AddAction(ActionKind::kDrain, record, ReasonCode::kAdmissionReconciled);
  AddReason(MakeReason(ReasonCode::kAdmissionReconciled, record.name,
                       {{"state", std::string(ManagerStateName(record.state))}}));
}

// `vendor_disabled` drains every ACTIVE worker of the vendor at once; its SPARE and WARM
// workers are no longer candidates (IsCandidate).
void Cycle::DisableVendors() {
  if (config_.vendors.disabled.empty()) return;
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = status_[i];
    if (!status || record.state != ManagerState::kActive || !VendorDisabled(*status)) continue;
    EnterState(record, ManagerState::kDraining);
    record.drain_cause = DrainCause::kVendorDisabled;
    AddAction(ActionKind::kDrain, record, ReasonCode::kVendorDisabled);
    AddReason(MakeReason(ReasonCode::kVendorDisabled, record.name, {{"vendor", status->vendor}}));
  }
}

// NVENC near its session cap hands S and M jobs to VA-API workers, when there are any.
void Cycle::ShiftSessions() {
  const bool vaapi_present = AnyVaapiWorker();
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    const WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = Readable(i);
    if (!eligible_[i] || status->vendor != "nvidia" || status->sessions_cap <= 0) continue;
    const int limit = status->sessions_cap - config_.vendors.nvenc_session_reserve;
    if (!record.small_jobs_shifted && status->sessions_active >= limit && vaapi_present) {
      ShiftSmallJobs(i);
    } else if (record.small_jobs_shifted && status->sessions_active < limit - 1) {
      RestoreSmallJobs(i);
    }
  }
}

// Whether an Intel worker serves, or could be promoted to.
bool Cycle::AnyVaapiWorker() const {
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    const WorkerStatus* status = Readable(i);
    if (status && status->vendor == "intel" && (eligible_[i] || IsCandidate(i))) return true;
  }
  return false;
}

void Cycle::ShiftSmallJobs(std::size_t i) {
  WorkerRecord& record = state().workers[i];
  const WorkerStatus& status = *status_[i];
  // The capacity measured this cycle loses the worker's S and M slots at once.
  for (Bucket& bucket : buckets_) {
    if (IsSmall(bucket.need.job_class) && Counts(i, bucket.need))
      bucket.slots -= std::max(1, status.concurrency);
  }
  record.small_jobs_shifted = true;
  AddAction(ActionKind::kSetClasses, record, ReasonCode::kSessionShift, 0,
            Bit(JobClass::kL) | Bit(JobClass::kXL));
  AddReason(MakeReason(ReasonCode::kSessionShift, record.name,
                       {{"active", std::to_string(status.sessions_active)},
                        {"cap", std::to_string(status.sessions_cap)}}));
}

void Cycle::RestoreSmallJobs(std::size_t i) {
  WorkerRecord& record = state().workers[i];
  const WorkerStatus& status = *status_[i];
  record.small_jobs_shifted = false;
  AddAction(ActionKind::kSetClasses, record, ReasonCode::kSessionShiftOver, 0, kEveryClass);
  AddReason(MakeReason(ReasonCode::kSessionShiftOver, record.name,
                       {{"active", std::to_string(status.sessions_active)},
                        {"cap", std::to_string(status.sessions_cap)}}));
}

}  // namespace mc::pool::internal
