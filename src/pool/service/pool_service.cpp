#include "pool/service/pool_service.h"

#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <system_error>
#include <utility>

#include "pool/policy/policy.h"
#include "pool/policy/pressure.h"
#include "pool/policy/reasons.h"
#include "pool/policy/weights.h"
#include "pool/service/eligibility_text.h"
#include "pool/service/job_list.h"
#include "pool/service/worker_status_reader.h"

namespace mc::pool {

namespace {

// A job list is sent again after this long, even when it has not changed.
// That is well within the worker's own lifetime for it.
// The lifetime is DaemonOptions::job_list_lifetime, ten minutes.
constexpr pool::Duration kJobListRenewal = pool::Minutes(2);

// The page lists this many of the last decisions.
constexpr std::size_t kDecisionsShown = 40;

// What an action sets: a newer action of the same group replaces an older one still waiting.
int ActionGroup(pool::ActionKind kind) {
  switch (kind) {
    case pool::ActionKind::kEnable:
    case pool::ActionKind::kDrain:
      return 0;
    case pool::ActionKind::kSetClasses:
      return 1;
    case pool::ActionKind::kProbe:
      return 2;
    case pool::ActionKind::kWake:
    case pool::ActionKind::kSuspend:
      return 3;
  }
  return 0;
}

std::string ActionWords(const pool::Action& action) {
  std::string words = std::string(pool::ActionKindName(action.kind)) + " " + action.worker;
  if (action.kind == pool::ActionKind::kEnable) {
    words += " at concurrency " + std::to_string(action.concurrency);
  } else if (action.kind == pool::ActionKind::kSetClasses) {
    words += " to " + ClassMaskText(action.classes);
    if (action.jobs) words += " listing " + std::to_string(action.jobs->size()) + " job(s)";
  }
  return words;
}

double SecondsSinceEpoch(pool::TimePoint now) { return now.time_since_epoch().count(); }

}  // namespace

PoolService::PoolService(pool::PoolConfig policy, pool::Duration queue_poll, ServiceInputs inputs,
                         ControlChannel& channel, Logger log)
    : policy_(std::move(policy)),
      queue_poll_(queue_poll),
      inputs_(std::move(inputs)),
      channel_(channel),
      log_(std::move(log)) {}

pool::QueueSignal PoolService::ReadQueue(pool::TimePoint now) {
  const bool due = !last_queue_try_ || now - *last_queue_try_ >= queue_poll_ - pool::Seconds(0.5);
  if (due) {
    last_queue_try_ = now;
    Result<pool::QueueSignal> read = inputs_.read_queue(SecondsSinceEpoch(now));
    if (read) {
      ++counters_.queue_reads;
      last_queue_ = std::move(*read);
      last_queue_read_ = now;
    } else {
      ++counters_.queue_read_failures;
      log_("pool: PeerTube's job list could not be read (tried again in " +
           pool::FormatDuration(queue_poll_) + "): " + read.error_message());
    }
  }
  // Between reads, and after a failed one, the policy gets the last list with its age.
  // So it sees how stale the data is, and holds what a stale list cannot justify.
  pool::QueueSignal queue = last_queue_.value_or(pool::QueueSignal{});
  queue.read_ok = last_queue_read_.has_value() && *last_queue_read_ == *last_queue_try_;
  queue.data_age = last_queue_read_ ? now - *last_queue_read_ : pool::Hours(24);
  for (pool::PendingJob& job : queue.pending) job.age += queue.data_age;
  return queue;
}

std::vector<pool::WorkerStatus> PoolService::ReadWorkers() {
  if (Result<std::vector<WorkerEndpoint>> listed = inputs_.list_workers(); listed) {
    workers_ = std::move(*listed);
  } else {
    log_("pool: the workers could not be listed (the last list is kept): " +
         listed.error_message());
  }
  // The documents are read side by side.
  // Silent workers hold the cycle for one read's deadline, not one each.
  // So a pool with boxes asleep, or a network partition, keeps its pace.
  // A read that cannot have a thread of its own is made here.
  std::vector<std::future<Result<std::string>>> reads;
  reads.reserve(workers_.size());
  for (const WorkerEndpoint& worker : workers_) {
    try {
      reads.push_back(std::async(std::launch::async, inputs_.read_status, std::cref(worker)));
    } catch (const std::system_error&) {
      std::promise<Result<std::string>> inline_read;
      inline_read.set_value(inputs_.read_status(worker));
      reads.push_back(inline_read.get_future());
    }
  }
  std::erase_if(facts_, [&](const auto& entry) {
    return std::none_of(workers_.begin(), workers_.end(),
                        [&](const WorkerEndpoint& w) { return w.name == entry.first; });
  });
  std::vector<pool::WorkerStatus> statuses;
  statuses.reserve(workers_.size());
  read_.clear();
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    const WorkerEndpoint& worker = workers_[i];
    Result<std::string> text = reads[i].get();
    Result<pool::WorkerStatus> status =
        text ? ParseWorkerStatus(*text, worker.name) : Result<pool::WorkerStatus>(text.error());
    if (record_) {
      read_.push_back(RecordedWorker{worker.name, worker.wakeable, status ? *text : "",
                                     status ? "" : status.error_message()});
    }
    if (!status) {
      // Whether it can be woken is the inventory's word, not the document's.
      // A box asleep, or an ordinal the StatefulSet has not grown to, answers nothing.
      // It is still wakeable.
      statuses.push_back(UnreadableWorker(worker.name));
      statuses.back().wakeable = worker.wakeable;
      const std::string words = "status unreadable: " + status.error_message();
      if (last_reason_[worker.name] != words) log_("pool: " + worker.name + ": " + words);
      last_reason_[worker.name] = words;
      continue;
    }
    status->wakeable = worker.wakeable;
    facts_[worker.name] = ReadWorkerFacts(*text);
    statuses.push_back(std::move(*status));
  }
  return statuses;
}

void PoolService::Queue(const pool::Action& action) {
  pending_[{action.worker, ActionGroup(action.kind)}] = PendingAction{action, 0};
}

// The classes the policy has open on a worker stay its own.
// This adds the list of pending jobs those classes and the worker's GPU allow.
// It does so where a bound cannot say it (job_list.h).
// The list is sent when it changes, and renewed before the worker lets it lapse.
// A worker that no longer needs a list is sent its classes without one.
void PoolService::QueueJobLists(const pool::Signals& signals, pool::TimePoint now) {
  const int group = ActionGroup(pool::ActionKind::kSetClasses);
  for (const pool::WorkerStatus& worker : signals.workers) {
    if (!worker.readable) continue;
    const auto queued = pending_.find({worker.name, group});
    const auto sent = eligibility_sent_.find(worker.name);
    pool::Action action{
        .kind = pool::ActionKind::kSetClasses,
        .worker = worker.name,
        .classes = sent == eligibility_sent_.end() ? pool::kEveryClass : sent->second.classes,
        .reason = pool::ReasonCode::kJobsListed};
    if (queued != pending_.end()) action = queued->second.action;
    action.jobs = JobList(worker, action.classes, signals.queue.pending, policy_.gates);
    const bool listed_before = sent != eligibility_sent_.end() && sent->second.jobs;
    if (!action.jobs && !listed_before) continue;
    const bool fresh = sent != eligibility_sent_.end() && sent->second.classes == action.classes &&
                       sent->second.jobs == action.jobs && now - sent->second.at < kJobListRenewal;
    if (fresh && queued == pending_.end()) continue;
    if (queued != pending_.end()) {
      queued->second.action = std::move(action);
    } else {
      Queue(action);
    }
  }
}

void PoolService::ApplyPending(pool::TimePoint now) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    PendingAction& pending = it->second;
    const pool::Action& action = pending.action;
    const auto worker =
        std::find_if(workers_.begin(), workers_.end(),
                     [&](const WorkerEndpoint& w) { return w.name == action.worker; });
    if (worker == workers_.end()) {
      log_("pool: " + ActionWords(action) + " dropped: the worker is no longer in the pool");
      failed_.erase(action.worker);
      it = pending_.erase(it);
      continue;
    }
    ++pending.attempts;
    Result<void> applied = channel_.Apply(action, *worker);
    if (applied) {
      log_("pool: " + ActionWords(action) + ": done (" + channel_.Describe(action, *worker) + ")");
      // A newer action of the failed one's group replaced it, and went through.
      if (const auto failed = failed_.find(action.worker);
          failed != failed_.end() && failed->second.group == ActionGroup(action.kind))
        failed_.erase(failed);
      if (action.kind == pool::ActionKind::kDrain) ++counters_.drains;
      if (action.kind == pool::ActionKind::kSetClasses)
        eligibility_sent_[action.worker] = {action.classes, action.jobs, now};
      it = pending_.erase(it);
      continue;
    }
    if (applied.error().code == ErrorCode::kUnsupported) {
      // No retry makes an action this channel cannot carry possible; it is said once, loudly.
      log_("pool: " + ActionWords(action) + " cannot be carried: " + applied.error_message());
      it = pending_.erase(it);
      continue;
    }
    ++counters_.actions_failed;
    log_("pool: " + ActionWords(action) + " failed (attempt " + std::to_string(pending.attempts) +
         ", tried again next cycle): " + applied.error_message());
    failed_[action.worker] = {.shown = {.action = ActionWords(action),
                                        .error = applied.error_message(),
                                        .attempts = pending.attempts},
                              .group = ActionGroup(action.kind)};
    ++it;
  }
}

void PoolService::LogNewReasons(const std::vector<pool::Reason>& reasons) {
  std::set<std::pair<std::string, std::string>> said;
  for (const pool::Reason& reason : reasons) {
    said.insert({reason.worker, reason.text});
    if (!reason.worker.empty()) last_reason_[reason.worker] = reason.text;
    if (said_.count({reason.worker, reason.text})) continue;
    // Every reason's sentence names its worker itself.
    log_("pool: " + reason.text);
  }
  said_ = std::move(said);
}

void PoolService::LogUnservable(const std::vector<std::string>& lines) {
  // Each is said when it appears and when it clears, not every cycle: the report holds it
  // for as long as it lasts.
  std::set<std::string> now(lines.begin(), lines.end());
  for (const std::string& line : now) {
    if (!unservable_said_.count(line)) log_("pool: unservable: " + line);
  }
  for (const std::string& line : unservable_said_) {
    if (!now.count(line)) log_("pool: no longer unservable: " + line);
  }
  unservable_said_ = std::move(now);
}

void PoolService::Cycle(pool::TimePoint now) {
  pool::Signals signals;
  signals.workers = ReadWorkers();
  signals.queue = ReadQueue(now);
  pool::Decision decision = pool::Decide(std::move(state_), signals, now, policy_);
  state_ = decision.state;
  ++counters_.cycles;
  bool held = false;
  for (const pool::Reason& reason : decision.reasons) {
    held |= reason.code == pool::ReasonCode::kQueueLost ||
            reason.code == pool::ReasonCode::kStatusUnreadable;
  }
  // Counted from the actions.
  // The work-aware profile says at most a few of its sentences a cycle.
  // And every enable and drain it makes carries its reason.
  for (const pool::Action& action : decision.actions) {
    const pool::ReasonCode why = action.reason;
    if (action.kind == pool::ActionKind::kEnable &&
        (why == pool::ReasonCode::kPromoted || why == pool::ReasonCode::kWorkEnabled)) {
      ++counters_.promotions;
    }
    if (action.kind == pool::ActionKind::kDrain &&
        (why == pool::ReasonCode::kDemoted || why == pool::ReasonCode::kWorkReleased)) {
      ++counters_.demotions;
    }
  }
  if (held) ++counters_.held_for_lost_signals;
  RecordDecisions(decision, now);
  LogNewReasons(decision.reasons);
  for (const pool::Action& action : decision.actions) Queue(action);
  QueueJobLists(signals, now);
  ApplyPending(now);
  UpdateReport(decision, signals, now);
  if (record_) {
    CycleRecord cycle;
    cycle.t_s = SecondsSinceEpoch(now);
    cycle.queue = std::move(signals.queue);
    cycle.workers = std::move(read_);
    cycle.actions = std::move(decision.actions);
    cycle.reasons = std::move(decision.reasons);
    cycle.pressure = decision.pressure;
    cycle.capacity_slots = decision.capacity_slots;
    cycle.demand = decision.demand;
    record_(std::move(cycle));
    read_.clear();
  }
}

// The page's list of decisions: every action with its reason, and every reason said anew.
// A reason said again each cycle is listed once, when it is first said, as the log says it.
void PoolService::RecordDecisions(const pool::Decision& decision, pool::TimePoint now) {
  const std::string at = FormatUtc(now);
  std::vector<DecisionRow> rows;
  std::set<const pool::Reason*> told;
  for (const pool::Action& action : decision.actions) {
    const pool::Reason* reason = nullptr;
    for (const pool::Reason& candidate : decision.reasons) {
      if (candidate.worker != action.worker) continue;
      if (candidate.code == action.reason) {
        reason = &candidate;
        break;
      }
      if (!reason) reason = &candidate;
    }
    if (reason) told.insert(reason);
    rows.push_back({.at = at,
                    .worker = action.worker,
                    .action = ActionWords(action),
                    .reason = reason ? reason->text : pool::ReasonRow(action.reason).id});
  }
  for (const pool::Reason& reason : decision.reasons) {
    if (told.count(&reason) || said_.count({reason.worker, reason.text})) continue;
    rows.push_back({.at = at, .worker = reason.worker, .action = "", .reason = reason.text});
  }
  for (DecisionRow& row : rows) decisions_.push_front(std::move(row));
  while (decisions_.size() > kDecisionsShown) decisions_.pop_back();
}

// The longest wait of the jobs that left the pending list since the last list: a job leaves it
// when a runner accepts it (or it is cancelled), so its last age is its wait to start.
// Jobs without an id cannot be followed and count for nothing.
std::optional<double> PoolService::StartedWait(const pool::QueueSignal& queue) {
  std::map<std::string, double> ages;
  for (const pool::PendingJob& job : queue.pending) {
    if (!job.id.empty()) ages[job.id] = job.age.count();
  }
  std::optional<double> longest;
  if (queue.read_ok) {
    for (const auto& [id, age] : pending_ages_) {
      if (!ages.count(id)) longest = std::max(longest.value_or(0), age);
    }
    pending_ages_ = std::move(ages);
  }
  return longest;
}

void PoolService::UpdateReport(const pool::Decision& decision, const pool::Signals& signals,
                               pool::TimePoint now) {
  PoolReport report;
  report.generated_at = FormatUtc(now);
  report.pressure = decision.pressure;
  report.capacity_slots = decision.capacity_slots;
  report.demand = decision.demand;
  report.queue_read_ok = signals.queue.read_ok;
  report.queue_data_age_s = signals.queue.data_age.count();
  for (const pool::PendingJob& job : signals.queue.pending) ++report.pending_by_type[job.type];
  report.oldest_pending_age_s = signals.queue.OldestPendingAge().count();
  for (const auto& [type, other] : signals.queue.not_served)
    report.not_served[type] = {.count = other.count, .oldest_age_s = other.oldest_age.count()};
  // The queue by class and type, and each class's pressure over the admitted slots.
  std::map<std::pair<pool::JobClass, std::string>, QueueRow> by_class;
  std::array<int, pool::kJobClassCount> class_count{};
  std::array<double, pool::kJobClassCount> class_oldest{};
  for (const pool::PendingJob& job : signals.queue.pending) {
    const pool::JobClass job_class = pool::ClassifyJob(job.shape, policy_.gates.bounds);
    QueueRow& row = by_class[{job_class, job.type}];
    row.job_class = std::string(pool::JobClassName(job_class));
    row.type = job.type;
    ++row.count;
    row.oldest_age_s = std::max(row.oldest_age_s, job.age.count());
    ++class_count[pool::Index(job_class)];
    class_oldest[pool::Index(job_class)] =
        std::max(class_oldest[pool::Index(job_class)], job.age.count());
  }
  for (auto& [key, row] : by_class) report.queue_by_class.push_back(std::move(row));
  HistorySample sample;
  sample.t_s = SecondsSinceEpoch(now);
  for (pool::JobClass job_class : pool::kAllJobClasses) {
    const std::size_t i = pool::Index(job_class);
    if (class_count[i] == 0) continue;
    sample.pressure[i] = pool::PressureIndex(class_count[i], decision.capacity_slots,
                                             pool::Seconds(class_oldest[i]), policy_.pressure);
    report.pressure_by_class[std::string(pool::JobClassName(job_class))] = sample.pressure[i];
  }
  sample.pending = static_cast<int>(signals.queue.pending.size());
  sample.oldest_wait_s = report.oldest_pending_age_s;
  sample.started_wait_s = StartedWait(signals.queue);
  report.wait_target_s = policy_.target_wait.count();
  for (const pool::WorkerRecord& record : state_.workers) {
    sample.active_workers += record.state == pool::ManagerState::kActive;
    WorkerRow row;
    row.name = record.name;
    row.manager_state = std::string(pool::ManagerStateName(record.state));
    const auto status =
        std::find_if(signals.workers.begin(), signals.workers.end(),
                     [&](const pool::WorkerStatus& s) { return s.name == record.name; });
    if (status != signals.workers.end()) {
      row.admission_state =
          status->readable ? std::string(pool::AdmissionStateName(status->state)) : "UNREADABLE";
      row.active_jobs = status->active_jobs;
      row.concurrency = status->concurrency;
    } else {
      row.admission_state = "UNREADABLE";
    }
    for (pool::JobClass job_class : pool::kAllJobClasses) {
      row.weights[std::string(pool::JobClassName(job_class))] =
          pool::ShrunkWeight(record.weights[pool::Index(job_class)], job_class, policy_.weights);
    }
    const auto sent = eligibility_sent_.find(record.name);
    row.classes =
        ClassMaskText(sent == eligibility_sent_.end() ? pool::kEveryClass : sent->second.classes);
    if (sent != eligibility_sent_.end() && sent->second.jobs)
      row.classes += ", " + std::to_string(sent->second.jobs->size()) + " job(s) listed";
    row.last_reason = last_reason_[record.name];
    if (const auto facts = facts_.find(record.name); facts != facts_.end()) {
      row.vendor = facts->second.vendor;
      row.gpu_model = facts->second.model;
      row.sessions_active = facts->second.sessions_active;
      row.sessions_cap = facts->second.sessions_cap;
      row.evidence_ok = facts->second.evidence_ok;
      row.evidence = facts->second.evidence;
      row.self_test_ok = facts->second.self_test_ok;
      row.self_test_at = facts->second.self_test_at;
      row.self_test_detail = facts->second.self_test_detail;
    }
    if (const auto failed = failed_.find(record.name); failed != failed_.end())
      row.failed = failed->second.shown;
    report.workers.push_back(std::move(row));
  }
  report.decisions.assign(decisions_.begin(), decisions_.end());
  if (inputs_.unservable) {
    report.unservable = inputs_.unservable();
    LogUnservable(report.unservable);
  }
  if (inputs_.requests_made) counters_.peertube_requests = inputs_.requests_made();
  report.counters = counters_;
  std::lock_guard lock(report_mutex_);
  report_ = std::move(report);
  history_.Add(sample);
}

PoolReport PoolService::Report() const {
  std::lock_guard lock(report_mutex_);
  return report_;
}

PoolHistory PoolService::History() const {
  std::lock_guard lock(report_mutex_);
  return history_;
}

}  // namespace mc::pool
