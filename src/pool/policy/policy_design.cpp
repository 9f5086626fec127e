// The design profile (docs/pool/design.md): the pool is sized by the pressure index P.
// A promotion waits for P held high through the windows, spaced by the stagger.
// A demotion waits for P held low, and for an idle worker.
#include <algorithm>
#include <string>
#include <vector>

#include "pool/policy/policy_cycle.h"
#include "pool/policy/pressure.h"

namespace mc::pool::internal {

void Cycle::SizeByPressure() {
  if (decision_.pressure >= config_.hysteresis.up_threshold) {
    ScaleUp();
  } else if (decision_.pressure <= config_.hysteresis.down_threshold) {
    ScaleDown();
    Sleep();
  } else if (decision_.demand > 0) {
    AddReason(MakeReason(
        ReasonCode::kPressureBelowUp, "",
        {{"p", PressureText()}, {"threshold", FormatPressure(config_.hysteresis.up_threshold)}}));
  }
}

void Cycle::ScaleUp() {
  if (!HeldFor(ReasonCode::kPressureNotSustained, *state().high_since,
               config_.hysteresis.up_window * config_.hysteresis.up_windows,
               config_.hysteresis.up_threshold)) {
    return;
  }
  const std::vector<const Bucket*> pressing = PressingBuckets();
  if (pressing.empty()) {
    ReportCapacityStarting();
    return;
  }
  if (!SpacingAllows()) return;
  for (const Bucket* bucket : pressing) {
    if (Promote(ReasonCode::kPromoted, CountActive(), bucket)) return;
  }
  AddReason(MakeReason(ReasonCode::kNoCandidate, "", {{"p", PressureText()}, {"detail", ""}}));
  wake_for_ = pressing.front();
  Wake();
}

// A class's P once its starting workers take jobs. They count as capacity to come.
// Their start clears the age term, so only the depth term is left.
double Cycle::PressureToCome(const Bucket& bucket) const {
  if (bucket.starting_slots == 0) return bucket.pressure;
  return PressureIndex(bucket.count, bucket.slots + bucket.starting_slots, Seconds(0),
                       config_.pressure);
}

// The classes that call for a promotion, the most pressing first:
//  - those no ACTIVE or starting worker serves;
//  - then by P to come, then by their pending jobs.
std::vector<const Bucket*> Cycle::PressingBuckets() const {
  std::vector<const Bucket*> pressing;
  for (const Bucket& bucket : buckets_) {
    if (bucket.servable && PressureToCome(bucket) >= config_.hysteresis.up_threshold) {
      pressing.push_back(&bucket);
    }
  }
  std::stable_sort(pressing.begin(), pressing.end(), [&](const Bucket* a, const Bucket* b) {
    if (a->Waiting() != b->Waiting()) return a->Waiting();
    if (PressureToCome(*a) != PressureToCome(*b)) return PressureToCome(*a) > PressureToCome(*b);
    return a->count > b->count;
  });
  return pressing;
}

// Says why P held high promotes nobody: the class it comes from waits for starting workers.
void Cycle::ReportCapacityStarting() {
  const Bucket* top = nullptr;
  for (const Bucket& bucket : buckets_) {
    if (bucket.starting_slots > 0 && (!top || bucket.pressure > top->pressure)) top = &bucket;
  }
  if (!top) return;
  AddReason(MakeReason(ReasonCode::kCapacityStarting, "",
                       {{"class", std::string(JobClassName(top->need.job_class))},
                        {"workers", std::to_string(top->starting_workers)},
                        {"slots", std::to_string(top->starting_slots)},
                        {"p", FormatPressure(PressureToCome(*top))},
                        {"threshold", FormatPressure(config_.hysteresis.up_threshold)}}));
}

// Demote the lowest-weight idle ACTIVE worker once pressure has stayed low; a demotion is a
// drain, so a job that started meanwhile still finishes.
void Cycle::ScaleDown() {
  const int active = CountActive();
  const Duration sustained = now_ - *state().low_since;
  const Duration needed = config_.hysteresis.down_sustain;
  if (active <= config_.hysteresis.min_active) {
    if (active > 0 && sustained >= needed) {
      AddReason(MakeReason(ReasonCode::kMinActive, "",
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
    AddReason(MakeReason(ReasonCode::kDemotionWaitsIdle, "",
                         {{"needed", FormatDuration(config_.hysteresis.idle_before_demote)},
                          {"idle", FormatDuration(longest_idle)}}));
    return;
  }
  WorkerRecord& record = state().workers[*pick];
  const Duration idle = now_ - *record.idle_since;
  const double weight = MeanWeight(record);
  EnterState(record, ManagerState::kDraining);
  record.drain_cause = DrainCause::kScaleDown;
  AddAction(ActionKind::kDrain, record, ReasonCode::kDemoted);
  AddReason(MakeReason(ReasonCode::kDemoted, record.name,
                       {{"p", PressureText()},
                        {"threshold", FormatPressure(config_.hysteresis.down_threshold)},
                        {"sustained", FormatDuration(sustained)},
                        {"idle", FormatDuration(idle)},
                        {"weight", FormatPressure(weight)}}));
}

}  // namespace mc::pool::internal
