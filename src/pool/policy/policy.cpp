#include "pool/policy/policy.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "pool/policy/policy_cycle.h"
#include "pool/policy/weights.h"

namespace mc::pool {

namespace internal {

Decision Cycle::Run() {
  MatchWorkers();
  DetectFaultsAndLearn();
  DisableVendors();
  SettleTransitions();
  MeasurePressure();
  if (HoldOnLostQueue()) return std::move(decision_);
  UpdateWindows();
  ShiftSessions();
  if (EnsureMinActive()) return std::move(decision_);
  (this->*SizingRuleOf(config_.profile))();
  return std::move(decision_);
}

// The profile table: each profile's sizing rule. The design's applies to any other.
Cycle::SizingRule Cycle::SizingRuleOf(PolicyProfile profile) {
  static constexpr std::pair<PolicyProfile, SizingRule> kSizingRules[] = {
      {PolicyProfile::kWorkAware, &Cycle::SizeToWork},
      {PolicyProfile::kDesign, &Cycle::SizeByPressure},
  };
  for (const auto& [named, rule] : kSizingRules) {
    if (named == profile) return rule;
  }
  return &Cycle::SizeByPressure;
}

void Cycle::AddAction(ActionKind kind, const WorkerRecord& record, ReasonCode reason,
                      int concurrency, ClassMask classes) {
  decision_.actions.push_back(Action{.kind = kind,
                                     .worker = record.name,
                                     .concurrency = concurrency,
                                     .classes = classes,
                                     .reason = reason});
}

void Cycle::EnterState(WorkerRecord& record, ManagerState next) {
  record.state = next;
  record.since = now_;
  record.idle_since.reset();
  if (next != ManagerState::kActive) record.small_jobs_shifted = false;
}

const WorkerStatus* Cycle::Readable(std::size_t i) const {
  const WorkerStatus* status = status_[i];
  return status && status->readable ? status : nullptr;
}

bool Cycle::VendorDisabled(const WorkerStatus& status) const {
  const auto& disabled = config_.vendors.disabled;
  return std::find(disabled.begin(), disabled.end(), status.vendor) != disabled.end();
}

double Cycle::Weight(const WorkerRecord& record, JobClass job_class) const {
  return ShrunkWeight(record.weights[Index(job_class)], job_class, config_.weights);
}

double Cycle::MeanWeight(const WorkerRecord& record) const {
  double sum = 0;
  for (JobClass job_class : kAllJobClasses) sum += Weight(record, job_class);
  return sum / kJobClassCount;
}

// A SPARE or WARM worker that could be promoted, probe aside.
bool Cycle::IsCandidate(std::size_t i) const {
  const WorkerRecord& record = state().workers[i];
  const WorkerStatus* status = Readable(i);
  return (record.state == ManagerState::kSpare || record.state == ManagerState::kWarm) && status &&
         !IsFault(status->state) && !VendorDisabled(*status);
}

int Cycle::CountActive() const {
  return static_cast<int>(std::count_if(
      state().workers.begin(), state().workers.end(),
      [](const WorkerRecord& record) { return record.state == ManagerState::kActive; }));
}

// Drain order: low ŵ first, then low download rate (the cheapest to warm again).
bool Cycle::Cheaper(std::size_t a, std::size_t b) const {
  const double weight_a = MeanWeight(state().workers[a]);
  const double weight_b = MeanWeight(state().workers[b]);
  if (weight_a != weight_b) return weight_a < weight_b;
  if (status_[a]->download_mbps != status_[b]->download_mbps) {
    return status_[a]->download_mbps < status_[b]->download_mbps;
  }
  return state().workers[a].name > state().workers[b].name;
}

// Every worker in the signals has a record; one not seen before joins as SPARE.
void Cycle::MatchWorkers() {
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
      if (status.readable) AddReason(MakeReason(ReasonCode::kJoined, record.name, {}));
      workers.push_back(std::move(record));
      index.emplace(workers.back().name, workers.size() - 1);
      status_.push_back(&status);
    }
  }
  eligible_.assign(workers.size(), false);
  enabled_now_.assign(workers.size(), false);
}

// With no job list to trust, the manager holds: it neither promotes nor demotes, and the
// windows start again once the list is back.
bool Cycle::HoldOnLostQueue() {
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
  AddReason(MakeReason(ReasonCode::kQueueLost, "",
                       {{"how", queue.read_ok ? "stale" : "failing"},
                        {"age", FormatDuration(now_ - *state().queue_lost_since)}}));
  return true;
}

void Cycle::UpdateWindows() {
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

bool Cycle::SpacingAllows() {
  const auto& last = state().last_promotion;
  if (!last || now_ - *last >= config_.hysteresis.promotion_spacing) return true;
  AddReason(MakeReason(ReasonCode::kPromotionSpacing, "",
                       {{"since", FormatDuration(now_ - *last)},
                        {"needed", FormatDuration(config_.hysteresis.promotion_spacing)}}));
  return false;
}

// Below min_active the pool promotes whatever the pressure, still probe-gated and spaced.
// Returns whether the rule applied, so that no other scaling runs this cycle.
bool Cycle::EnsureMinActive() {
  const int active = CountActive();
  if (active >= config_.hysteresis.min_active) return false;
  if (!SpacingAllows()) return true;
  if (!Promote(ReasonCode::kBelowMinActive, active, GatedBucket())) {
    AddReason(MakeReason(ReasonCode::kNoCandidate, "",
                         {{"p", PressureText()}, {"detail", " to reach min_active"}}));
  }
  return true;
}

// HeldFor is whether P has stayed past `threshold` since `since` for `needed`; when not
// yet, it says how long so far with `code`.
bool Cycle::HeldFor(ReasonCode code, TimePoint since, Duration needed, double threshold) {
  const Duration sustained = now_ - since;
  if (sustained >= needed) return true;
  AddReason(MakeReason(code, "",
                       {{"p", PressureText()},
                        {"threshold", FormatPressure(threshold)},
                        {"sustained", FormatDuration(sustained)},
                        {"needed", FormatDuration(needed)}}));
  return false;
}

// The class that most needs a worker brought in (no ACTIVE or starting one passes its gates),
// if any.
const Bucket* Cycle::GatedBucket() const {
  const Bucket* gated = nullptr;
  for (const Bucket& bucket : buckets_) {
    if (bucket.Waiting() && (!gated || bucket.count > gated->count)) gated = &bucket;
  }
  return gated;
}

JobClass Cycle::DominantClass() const {
  const Bucket* top = nullptr;
  for (const Bucket& bucket : buckets_) {
    if (bucket.servable && (!top || bucket.count > top->count)) top = &bucket;
  }
  return top ? top->need.job_class : JobClass::kS;
}

// The SPARE and WARM workers, best first for `job_class`:
//  - the highest weight;
//  - at equal weight (as before any job is learned), WARM before SPARE;
//  - then the faster realtime factor.
// With `waiting`, only those that serve it.
std::vector<std::pair<double, std::size_t>> Cycle::SortedCandidates(const Bucket* waiting,
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
bool Cycle::ProbeAllows(std::size_t i) {
  const WorkerRecord& record = state().workers[i];
  const WorkerStatus& status = *status_[i];
  if (!status.probe_ok) {
    if (candidate_said_++ < kCandidateReasonsPerCycle) {
      AddReason(MakeReason(ReasonCode::kProbeRed, record.name, {}));
    }
    return false;
  }
  if (status.probe_age < config_.hysteresis.probe_max_age) return true;
  if (candidate_said_++ < kCandidateReasonsPerCycle) {
    AddReason(MakeReason(ReasonCode::kProbeStale, record.name,
                         {{"age", FormatDuration(status.probe_age)},
                          {"max", FormatDuration(config_.hysteresis.probe_max_age)}}));
  }
  if (!probe_asked_) {
    probe_asked_ = true;
    AddAction(ActionKind::kProbe, record, ReasonCode::kProbeRequested);
    AddReason(MakeReason(ReasonCode::kProbeRequested, record.name,
                         {{"age", FormatDuration(status.probe_age)}}));
  }
  return false;
}

// Promote the highest-weight SPARE or WARM worker whose probe is fresh and green.
// With `bucket`, the promotion is for its class: the worker must serve it.
bool Cycle::Promote(ReasonCode reason, int active_before, const Bucket* bucket) {
  const JobClass job_class = bucket ? bucket->need.job_class : DominantClass();
  for (const auto& [weight, i] : SortedCandidates(bucket, job_class)) {
    if (!ProbeAllows(i)) continue;
    WorkerRecord& record = state().workers[i];
    const int concurrency = std::max(1, status_[i]->concurrency);
    EnterState(record, ManagerState::kActive);
    state().last_promotion = now_;
    AddAction(ActionKind::kEnable, record, reason, concurrency);
    const std::string sustained =
        state().high_since ? FormatDuration(now_ - *state().high_since) : "0s";
    AddReason(MakeReason(reason, record.name,
                         {{"concurrency", std::to_string(concurrency)},
                          {"p", PressureText()},
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

}  // namespace internal

Decision Decide(const PoolState& state, const Signals& signals, TimePoint now,
                const PoolConfig& config) {
  return internal::Cycle(state, signals, now, config).Run();
}

Decision Decide(PoolState&& state, const Signals& signals, TimePoint now,
                const PoolConfig& config) {
  return internal::Cycle(std::move(state), signals, now, config).Run();
}

}  // namespace mc::pool
