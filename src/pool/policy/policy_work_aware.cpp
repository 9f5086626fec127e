// The work-aware profile (docs/pool/sizing.md): the pool is sized by the queued work
// against the encode rates of the workers that take it.
#include <algorithm>
#include <cmath>
#include <string>

#include "pool/policy/policy_cycle.h"

namespace mc::pool::internal {

// The work-aware profile. Every pending job gets a free slot.
// The pool gets the encode rate that finishes the queued work within `sizing.target_drain`.
// It is brought in at once, since enabling a worker whose service is up costs seconds.
// A worker goes as soon as the others would do as well without it.
// Only the expensive moves keep their guards:
//  - a box is woken for queued and coming work that outlasts `sizing.wake_after_work`;
//    the wake tier's spacing and caps apply;
//  - a suspend keeps its window.
// Nothing is ever interrupted. A release is a drain; a draining worker finishes its jobs.
void Cycle::SizeToWork() {
  const double target_s = DrainTarget().count();
  const bool class_unmet = !EnableForWaitingClasses(target_s);
  WorkCapacity capacity = MeasureWorkCapacity();
  const QueuedWork work = SumQueuedWork();
  const bool unmet = !EnableForQueuedWork(capacity, work, work.work_s / target_s);
  ReleaseSpare(capacity.rate, capacity.free, work.jobs, work.work_s / target_s, work.work_s);
  // A class only a box that sleeps can serve wakes it by the design's trigger: P is full
  // for that class, held for `wake.sustain`.
  if (class_unmet) {
    Wake();
  } else if (unmet) {
    const double all_s = work.work_s + work.to_come_s;
    Wake(Seconds(all_s / std::max(capacity.rate, 1e-9)), all_s);
  }
  if (class_unmet || unmet) ReportTargetWaitMissed();
  if (decision_.pressure <= config_.hysteresis.down_threshold) Sleep();
}

// How long a pending job waits for a busy slot to free before a worker is added for it: the
// target wait, less a cycle and the seconds an enabled worker takes to ask for a job.
Duration Cycle::Patience() const {
  constexpr Duration kEnableLead = Seconds(10);
  return std::max(
      {config_.sizing.enable_after, config_.target_wait - config_.cycle - kEnableLead, Seconds(0)});
}

// The queued work is to be done within `sizing.target_drain`, or the target wait if longer.
Duration Cycle::DrainTarget() const {
  return std::max(config_.sizing.target_drain, config_.target_wait);
}

// Says when a servable job has waited past the target and the pool has no worker left to add:
// the boxes still waking, or none.
void Cycle::ReportTargetWaitMissed() {
  if (config_.target_wait <= Seconds(0)) return;
  Duration oldest = Seconds(0);
  for (const Bucket& bucket : buckets_) {
    if (bucket.servable) oldest = std::max(oldest, bucket.oldest);
  }
  if (oldest <= config_.target_wait) return;
  int waking = 0;
  for (const WorkerRecord& record : state().workers) waking += record.wake_started.has_value();
  const std::string why = waking > 0 ? std::to_string(waking) + " box(es) still waking"
                                     : "no SPARE or WARM worker is left to enable";
  AddReason(MakeReason(ReasonCode::kTargetWaitMissed, "",
                       {{"oldest", FormatDuration(oldest)},
                        {"target", FormatDuration(config_.target_wait)},
                        {"why", why}}));
}

// A class no ACTIVE or starting worker serves gets one that does, at once.
// Returns whether every such class got one.
bool Cycle::EnableForWaitingClasses(double target_s) {
  bool all_found = true;
  for (Bucket& bucket : buckets_) {
    if (!bucket.Waiting()) continue;
    bool found = false;
    for (const auto& [weight, i] : SortedCandidates(&bucket, bucket.need.job_class)) {
      if (!ProbeAllows(i)) continue;
      EnableForWork(i, bucket.need.job_class, bucket.work_s, bucket.work_s / target_s, 0);
      found = true;
      break;
    }
    all_found = all_found && found;
  }
  return all_found;
}

// The ACTIVE workers' rate, their slots, and the slots free now or once started.
Cycle::WorkCapacity Cycle::MeasureWorkCapacity() const {
  WorkCapacity capacity;
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    if (!eligible_[i] && !starting_[i] && !enabled_now_[i]) continue;
    const int concurrency = std::max(1, status_[i]->concurrency);
    capacity.rate += Rate(i);
    capacity.slots += concurrency;
    capacity.free +=
        eligible_[i] ? std::max(0, concurrency - status_[i]->active_jobs) : concurrency;
  }
  return capacity;
}

// The pending work of the classes some worker of the pool can serve.
Cycle::QueuedWork Cycle::SumQueuedWork() const {
  QueuedWork work;
  for (const Bucket& bucket : buckets_) {
    if (!bucket.servable) continue;
    work.work_s += bucket.work_s;
    work.to_come_s += bucket.to_come_s;
    work.jobs += bucket.count;
    work.waited += bucket.waited;
  }
  return work;
}

// Every job that has waited the patience gets a slot at once.
// The pool gets the rate that finishes the queued work within the target.
// More slots than jobs finish nothing sooner.
// Only a worker that serves some pending class is enabled for it.
// Returns whether the pool has what it needs, with the workers enabled here in `capacity`.
bool Cycle::EnableForQueuedWork(WorkCapacity& capacity, const QueuedWork& work, double needed) {
  const int busy = capacity.slots - capacity.free;
  const auto short_of = [&] {
    return capacity.free < work.waited ||
           (capacity.rate < needed && capacity.slots < work.jobs + busy);
  };
  if (!short_of()) return true;
  const JobClass job_class = DominantClass();
  for (const auto& [weight, i] : SortedCandidates(nullptr, job_class)) {
    if (!short_of()) break;
    if (enabled_now_[i] || !ServesPending(i) || !ProbeAllows(i)) continue;
    EnableForWork(i, job_class, work.work_s, needed, capacity.rate);
    const int concurrency = std::max(1, status_[i]->concurrency);
    capacity.rate += Rate(i);
    capacity.slots += concurrency;
    capacity.free += concurrency;
  }
  return !short_of();
}

void Cycle::EnableForWork(std::size_t i, JobClass job_class, double work_s, double needed,
                          double rate) {
  WorkerRecord& record = state().workers[i];
  const int concurrency = std::max(1, status_[i]->concurrency);
  EnterState(record, ManagerState::kActive);
  state().last_promotion = now_;
  enabled_now_[i] = true;
  AddAction(ActionKind::kEnable, record, ReasonCode::kWorkEnabled, concurrency);
  if (work_said_++ >= kCandidateReasonsPerCycle) return;
  AddReason(MakeReason(ReasonCode::kWorkEnabled, record.name,
                       {{"concurrency", std::to_string(concurrency)},
                        {"work", FormatDuration(Seconds(work_s))},
                        {"class", std::string(JobClassName(job_class))},
                        {"needed", FormatNumber(std::round(needed * 10) / 10)},
                        {"target", FormatDuration(DrainTarget())},
                        {"rate", FormatNumber(std::round(rate * 10) / 10)}}));
}

// A worker's encode rate, in multiples of real time at 1080p30: its slots × its realtime
// factor.
double Cycle::Rate(std::size_t i) const {
  const WorkerStatus& status = *status_[i];
  const double speed =
      status.realtime_factor_ewma > 0 ? status.realtime_factor_ewma : config_.sizing.default_speed;
  return std::max(1, status.concurrency) * speed;
}

// Drains the ACTIVE workers the pool does not need:
//  - those idle for `idle_before_release`;
//  - those with a free slot beside their jobs; they finish them and take no more.
// The fewest jobs go first, then the cheapest.
// Each goes only if the others keep a free slot per pending job, and `keep_rate`.
// And only if the others still serve every class that has a job pending.
// A drain interrupts nothing.
void Cycle::ReleaseSpare(double rate, int free, int jobs, double keep_rate, double work_s) {
  // Each candidate gives up at least one free slot and some rate.
  // With none to spare, none goes, and a deep queue costs no sort of the pool.
  if (free <= jobs || rate <= keep_rate || CountActive() <= config_.hysteresis.min_active) {
    return;
  }
  int active = CountActive();
  for (std::size_t i : SpareWorkers()) {
    if (active <= config_.hysteresis.min_active) return;
    const int free_on = std::max(1, status_[i]->concurrency) - status_[i]->active_jobs;
    if (rate - Rate(i) < keep_rate || free - free_on < jobs || OnlyServer(i)) continue;
    rate -= Rate(i);
    free -= free_on;
    --active;
    ReleaseWorker(i, rate, work_s);
  }
}

// The ACTIVE workers that could go, in the order ReleaseSpare tries them.
std::vector<std::size_t> Cycle::SpareWorkers() const {
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
  return spare;
}

// Drains worker `i`; `rate` is what the pool keeps without it.
void Cycle::ReleaseWorker(std::size_t i, double rate, double work_s) {
  WorkerRecord& record = state().workers[i];
  const int concurrency = std::max(1, status_[i]->concurrency);
  for (Bucket& bucket : buckets_) {
    if (bucket.count > 0 && Counts(i, bucket.need)) bucket.slots -= concurrency;
  }
  EnterState(record, ManagerState::kDraining);
  record.drain_cause = DrainCause::kScaleDown;
  AddAction(ActionKind::kDrain, record, ReasonCode::kWorkReleased);
  if (work_said_++ >= kCandidateReasonsPerCycle) return;
  AddReason(MakeReason(ReasonCode::kWorkReleased, record.name,
                       {{"jobs", std::to_string(status_[i]->active_jobs)},
                        {"rate", FormatNumber(std::round(rate * 10) / 10)},
                        {"work", FormatDuration(Seconds(work_s))},
                        {"target", FormatDuration(DrainTarget())}}));
}

// Whether worker `i` is the last ACTIVE one passing the gates of a class with a job pending.
bool Cycle::OnlyServer(std::size_t i) const {
  for (const Bucket& bucket : buckets_) {
    if (!bucket.servable || bucket.count == 0) continue;
    const int concurrency = std::max(1, status_[i]->concurrency);
    if (bucket.slots + bucket.starting_slots > concurrency) continue;
    if (Counts(i, bucket.need)) return true;
  }
  return false;
}

}  // namespace mc::pool::internal
