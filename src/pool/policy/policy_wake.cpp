// The Wake-on-LAN tier and the suspend of boxes at rest, shared by the profiles.
#include <algorithm>
#include <string>

#include "pool/policy/policy_cycle.h"

namespace mc::pool::internal {

// The Wake-on-LAN tier: the last resort, since a boot takes minutes.
// Two triggers:
//  - the design's: P held high for `wake.sustain`;
//  - the work-aware one (`busy` given): work queued and to come keeps every worker up busy
//    longer than `sizing.wake_after_work`.
// The spacing, the wakes in progress, the daily cap and the battery guard both.
void Cycle::Wake(std::optional<Duration> busy, double work_s) {
  if (!WakeTriggered(busy)) return;
  const Duration sustained = state().wake_since ? now_ - *state().wake_since : Seconds(0);
  const Bucket* gated = wake_for_ ? wake_for_ : GatedBucket();
  if (WakesHeldBack(gated)) return;
  for (const auto& [weight, i] : WakeableBoxes(gated)) {
    if (!MayWake(i)) continue;
    StartWake(i, busy, work_s, sustained);
    return;
  }
  AddReason(MakeReason(ReasonCode::kWakeNoBox, "", {}));
}

// Whether the wake's trigger holds: `busy` outlasts its bound, or else P held high.
bool Cycle::WakeTriggered(std::optional<Duration> busy) {
  if (busy) return *busy >= config_.sizing.wake_after_work;
  if (decision_.pressure < config_.wake.pressure) return false;
  return HeldFor(ReasonCode::kWakeNotSustained, *state().wake_since, config_.wake.sustain,
                 config_.wake.pressure);
}

// Whether a wake waits: for a SPARE worker left, for the wakes in progress, or for spacing.
bool Cycle::WakesHeldBack(const Bucket* gated) {
  int spare_left = 0;
  int in_progress = 0;
  // A SPARE worker whose probe failed cannot be promoted, so it does not hold a wake back.
  // Nor does one that cannot serve the class the wake is for.
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    spare_left += IsCandidate(i) && status_[i]->probe_ok && (!gated || Serves(*gated, i));
    in_progress += state().workers[i].wake_started.has_value();
  }
  if (spare_left > 0) {
    AddReason(MakeReason(ReasonCode::kWakeSpareLeft, "", {{"count", std::to_string(spare_left)}}));
    return true;
  }
  if (in_progress >= config_.wake.max_concurrent) {
    AddReason(MakeReason(ReasonCode::kWakeConcurrent, "",
                         {{"count", std::to_string(in_progress)},
                          {"max", std::to_string(config_.wake.max_concurrent)}}));
    return true;
  }
  const auto& last = state().last_wake;
  if (last && now_ - *last < config_.wake.spacing) {
    AddReason(MakeReason(ReasonCode::kWakeSpacing, "",
                         {{"since", FormatDuration(now_ - *last)},
                          {"needed", FormatDuration(config_.wake.spacing)}}));
    return true;
  }
  return false;
}

// The boxes asleep that a wake may start, with their mean weight, the heaviest first.
// With `gated`, only those that pass its hard gates.
std::vector<std::pair<double, std::size_t>> Cycle::WakeableBoxes(const Bucket* gated) const {
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
  return boxes;
}

// Whether box `i` may be woken: not on battery, nor at its daily cap.
bool Cycle::MayWake(std::size_t i) {
  const WorkerRecord& record = state().workers[i];
  if (status_[i]->on_battery) {
    AddReason(MakeReason(ReasonCode::kWakeOnBattery, record.name, {}));
    return false;
  }
  if (static_cast<int>(record.wakes.size()) >= config_.wake.max_per_day) {
    AddReason(MakeReason(ReasonCode::kWakeDailyCap, record.name,
                         {{"count", std::to_string(record.wakes.size())},
                          {"max", std::to_string(config_.wake.max_per_day)}}));
    return false;
  }
  return true;
}

// Wakes box `i`, with the reason of the trigger that held.
void Cycle::StartWake(std::size_t i, std::optional<Duration> busy, double work_s,
                      Duration sustained) {
  WorkerRecord& record = state().workers[i];
  record.wake_started = now_;
  record.wakes.push_back(now_);
  state().last_wake = now_;
  if (busy) {
    AddAction(ActionKind::kWake, record, ReasonCode::kWorkWoken);
    AddReason(MakeReason(ReasonCode::kWorkWoken, record.name,
                         {{"work", FormatDuration(Seconds(work_s))},
                          {"busy", FormatDuration(*busy)},
                          {"outlast", FormatDuration(config_.sizing.wake_after_work)}}));
    return;
  }
  AddAction(ActionKind::kWake, record, ReasonCode::kWoken);
  AddReason(MakeReason(ReasonCode::kWoken, record.name,
                       {{"p", PressureText()},
                        {"threshold", FormatPressure(config_.wake.pressure)},
                        {"sustained", FormatDuration(sustained)}}));
}

// A SPARE box that can be woken again and has rested long enough is suspended; one with a
// job, or on battery, never is.
void Cycle::Sleep() {
  if (config_.wake.sleep_after <= Seconds(0)) return;
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    WorkerRecord& record = state().workers[i];
    const WorkerStatus* status = Readable(i);
    if (record.state != ManagerState::kSpare || !status || status->active_jobs != 0 ||
        !status->wakeable || status->on_battery || now_ - record.since < config_.wake.sleep_after) {
      continue;
    }
    const Duration idle = now_ - record.since;
    EnterState(record, ManagerState::kCold);
    AddAction(ActionKind::kSuspend, record, ReasonCode::kSuspended);
    AddReason(MakeReason(ReasonCode::kSuspended, record.name, {{"idle", FormatDuration(idle)}}));
    return;
  }
}

}  // namespace mc::pool::internal
