#include "pool/simulator/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include "pool/policy/config_yaml.h"
#include "pool/policy/gates.h"
#include "pool/policy/policy.h"
#include "pool/policy/pressure.h"
#include "pool/policy/work.h"
#include "pool/simulator/baseline_scaler.h"
#include "pool/simulator/sim_fleet.h"

namespace mc::pool {

namespace {

// PeerTube's RUNNER_JOBS.MAX_FAILURES: the fifth error is final.
constexpr int kMaxFailures = 5;

// The percentile of sorted `values`, nearest rank.
double Percentile(const std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const std::size_t rank = static_cast<std::size_t>(std::ceil(fraction * values.size()));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

// A simulated worker's admission in the worker's own words; one still starting says so.
const char* AdmissionName(Admission admission) {
  switch (admission) {
    case Admission::kDrained:
      return "DRAINED";
    case Admission::kStarting:
      return "STARTING";
    case Admission::kAvailable:
      return "AVAILABLE";
    case Admission::kDraining:
      return "DRAINING";
  }
  return "DRAINED";
}

class Simulation : private SimFleet {
 public:
  Simulation(const Trace& trace, const std::vector<SimWorkerSpec>& specs, const SimOptions& options)
      : options_(options), config_(options.config), random_(options.race_order) {
    for (const TraceEvent& event : trace.events) events_.push_back(&event);
    std::stable_sort(events_.begin(), events_.end(),
                     [](const TraceEvent* a, const TraceEvent* b) { return a->at_s < b->at_s; });
    result_.policy = options.policy;
    std::unordered_map<std::string, int> index;
    jobs_.resize(trace.jobs.size());
    for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
      SimJob& job = jobs_[i];
      job.spec = &trace.jobs[i];
      job.need = NeedOf(job.spec->shape, options.config.gates);
      index.emplace(job.spec->id, static_cast<int>(i));
      if (!job.spec->parent.empty()) {
        auto parent = index.find(job.spec->parent);
        if (parent != index.end()) {
          job.parent = parent->second;
          jobs_[parent->second].children.push_back(static_cast<int>(i));
        }
      }
      job.unservable = std::none_of(specs.begin(), specs.end(), [&](const SimWorkerSpec& spec) {
        return PassesHardGates(job.need, spec.capabilities);
      });
      if (job.parent >= 0 && jobs_[job.parent].unservable) job.unservable = true;
      if (job.unservable) {
        ++result_.unservable;
        result_.unservable_ids.push_back(job.spec->id);
      } else {
        ++outstanding_;
      }
      last_arrival_ = std::max(last_arrival_, job.spec->at_s);
    }
    arrivals_.resize(jobs_.size());
    for (std::size_t i = 0; i < jobs_.size(); ++i) arrivals_[i] = static_cast<int>(i);
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [&](int a, int b) { return jobs_[a].spec->at_s < jobs_[b].spec->at_s; });
    horizon_ = std::max(trace.horizon_s, last_arrival_);
    result_.jobs = static_cast<int>(jobs_.size());

    workers_.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      SimWorker& worker = workers_[i];
      worker.spec = &specs[i];
      worker.powered = !specs[i].cold;
      // Probes are spread over the interval, as boxes enrolled at different times are.
      worker.probe_at = specs[i].probe_age_at_start >= 0
                            ? -specs[i].probe_age_at_start
                            : -std::fmod(i * 37.0, std::max(1.0, specs[i].probe_every_s));
      worker_index_.emplace(specs[i].name, static_cast<int>(i));
    }
    scaler_ = MakeBaselineScaler(options, *this);
    StartPolicy();
  }

  SimResult Run() {
    const double cap = horizon_ + 3 * 86400;
    double t = 0;
    std::size_t cycle = 0;
    double next_observe = options_.cycles_at_s.empty() ? 0 : options_.cycles_at_s.front();
    for (;; t += options_.step_s) {
      Happen(t);
      Arrive(t);
      StepWorkers(t);
      if (scaler_) scaler_->Step(t);
      if (t >= next_observe) {
        Observe(t);
        // The workers are read and the policy asked once a cycle, as the service does: at
        // the given instants, then a cycle apart.
        ++cycle;
        next_observe = cycle < options_.cycles_at_s.size() ? options_.cycles_at_s[cycle]
                                                           : next_observe + config_.cycle.count();
      }
      if (scaler_) scaler_->Poll(t);
      HandOut(t);
      if ((t >= horizon_ && outstanding_ == 0) || t >= cap) break;
    }
    return Finish(t);
  }

 private:
  // Where each policy starts: ours with min_active workers ACTIVE and the rest SPARE (or
  // COLD), a baseline as its scaler says (baseline_scaler.h).
  void StartPolicy() {
    int on = scaler_ ? scaler_->Start()
                     : (options_.start_as_service ? 0 : options_.config.hysteresis.min_active);
    const bool ours_remembers = !scaler_ && !options_.start_as_service;
    // A worker the workers file states ACTIVE admits jobs from the start under every policy.
    for (SimWorker& worker : workers_) {
      if (worker.spec->start_state == ManagerState::kActive && worker.powered) {
        AdmitFromStart(worker);
        --on;
      }
    }
    for (SimWorker& worker : workers_) {
      const bool stated_active = worker.admission == Admission::kAvailable;
      if (options_.start_as_service && worker.spec->starts_available) {
        worker.admission = Admission::kAvailable;
      }
      if (ours_remembers) pool_.workers.push_back(StartingRecord(worker, stated_active));
      if (stated_active) continue;
      if (on > 0 && worker.powered) {
        --on;
        AdmitFromStart(worker);
        if (ours_remembers) pool_.workers.back().state = ManagerState::kActive;
      }
    }
  }

  void AdmitFromStart(SimWorker& worker) {
    worker.admission = Admission::kAvailable;
    if (scaler_) scaler_->AdoptStartingWorker(worker);
  }

  // Ours' memory of a worker at the start, as the workers file states it.
  WorkerRecord StartingRecord(const SimWorker& worker, bool stated_active) const {
    WorkerRecord record;
    record.name = worker.spec->name;
    record.state = worker.powered ? ManagerState::kSpare : ManagerState::kCold;
    if (worker.powered && worker.spec->start_state == ManagerState::kWarm) {
      record.state = ManagerState::kWarm;
    }
    if (stated_active) record.state = ManagerState::kActive;
    if (worker.spec->weight) {
      // As if learned from many jobs, so that the shrinkage toward the prior is negligible.
      for (ClassWeight& weight : record.weights) weight = ClassWeight{*worker.spec->weight, 1000};
    }
    record.since = At(0);
    return record;
  }

  // The trace's events that are due: a configuration change, sessions another process
  // holds, one job's failed evidence check, an interval of failing probes.
  void Happen(double t) {
    for (; next_event_ < events_.size() && events_[next_event_]->at_s <= t; ++next_event_) {
      const TraceEvent& event = *events_[next_event_];
      if (event.kind == TraceEventKind::kConfig) {
        // Checked when the trace was read; the keys change the configuration in effect.
        if (Result<PoolConfig> changed = ParsePoolConfig(event.config, "set", config_)) {
          config_ = *changed;
        }
        continue;
      }
      auto found = worker_index_.find(event.worker);
      if (found == worker_index_.end()) continue;
      SimWorker& worker = workers_[found->second];
      const double until = event.for_s > 0 ? t + event.for_s : std::numeric_limits<double>::max();
      switch (event.kind) {
        case TraceEventKind::kSessions:
          worker.held_sessions = event.sessions;
          worker.held_until = until;
          break;
        case TraceEventKind::kEvidenceFails:
          worker.evidence_fails_next = true;
          break;
        case TraceEventKind::kProbeFails:
          // It probes now and fails, and every probe fails until the interval is over.
          worker.probe_fails_until = until;
          if (worker.IsPoweredUp(t)) Probe(worker, t);
          break;
        case TraceEventKind::kConfig:
          break;
      }
    }
  }

  void MakePending(int j, double t) {
    SimJob& job = jobs_[j];
    job.state = JobState::kPending;
    job.pending_since = t;
    job.worker = -1;
    pending_.insert({job.spec->priority, j});
  }

  void Arrive(double t) {
    while (!returns_.empty() && returns_.begin()->first <= t) {
      MakePending(returns_.begin()->second, t);
      returns_.erase(returns_.begin());
    }
    while (next_arrival_ < arrivals_.size() && jobs_[arrivals_[next_arrival_]].spec->at_s <= t) {
      const int j = arrivals_[next_arrival_++];
      SimJob& job = jobs_[j];
      job.arrived = true;
      if (job.parent < 0 || jobs_[job.parent].state == JobState::kDone) {
        MakePending(j, t);
      } else if (jobs_[job.parent].state == JobState::kErrored) {
        ErrorWithChildren(j);
      }
    }
  }

  // A job that can never run: it and its waiting children are done with, as errored.
  void ErrorWithChildren(int j) {
    SimJob& job = jobs_[j];
    if (job.state == JobState::kErrored) return;
    if (job.state == JobState::kPending) pending_.erase({job.spec->priority, j});
    job.state = JobState::kErrored;
    ++result_.errored;
    if (!job.unservable) --outstanding_;
    for (int child : job.children) ErrorWithChildren(child);
  }

  // A job taken off its worker: back to pending, as PeerTube does with an abort or an error.
  void Requeue(int j, double t, bool counts_as_failure) {
    SimJob& job = jobs_[j];
    if (counts_as_failure && ++job.failures >= kMaxFailures) {
      job.state = JobState::kWaiting;
      ErrorWithChildren(j);
      return;
    }
    MakePending(j, t);
  }

  // The run of a replayed job that is next or under way, as its record states it; null
  // where the job's runs are modelled.
  const TraceRun* RecordedRun(const SimJob& job) const {
    return job.run < job.spec->runs.size() ? &job.spec->runs[job.run] : nullptr;
  }

  // A recorded run ended without completing the job.
  // The job waits until PeerTube really had it pending again.
  // Its next run is the next recorded one.
  void RecordedRunEnded(int j, double t) {
    SimJob& job = jobs_[j];
    const double again = job.spec->runs[job.run].again_s;
    ++job.run;
    ++result_.retries;
    job.worker = -1;
    if (again <= t) {
      MakePending(j, t);
    } else {
      job.state = JobState::kWaiting;
      returns_.insert({again, j});
    }
  }

  // One pass over the workers a step: their own timers, finished jobs, and worker-hours.
  // Only one pass, since a day of a thousand workers is 86 million of them.
  void StepWorkers(double t) {
    for (SimWorker& worker : workers_) {
      if (worker.IsPoweredUp(t)) Advance(worker, t);
      worker.admitted |= worker.admission == Admission::kAvailable;
      if (!worker.running.empty()) Complete(worker, t);
      if (IsHeld(worker, t)) {
        worker_seconds_ += options_.step_s;
        if (!worker.running.empty()) busy_seconds_ += options_.step_s;
      }
    }
  }

  // Whether the pool pays for `worker` at `t`. A box woken for ours is held from its wake,
  // as a booting pod is for the baselines.
  bool IsHeld(const SimWorker& worker, double t) const {
    if (scaler_) return scaler_->Holds(worker);
    return worker.IsInService() || (worker.powered && !worker.IsPoweredUp(t));
  }

  void Advance(SimWorker& worker, double t) {
    if (worker.admission == Admission::kStarting && t >= worker.available_at) {
      worker.admission = Admission::kAvailable;
    }
    const bool down = worker.FaultActive(FailureKind::kGpuUnavailable, t);
    if (down && !worker.was_down) {
      // The GPU went away under its jobs: each errors, and PeerTube retries it. A replayed
      // job's run ends as its record says instead, which may be after the GPU came back.
      std::erase_if(worker.running, [&](int j) {
        if (RecordedRun(jobs_[j])) return false;
        ++result_.retries;
        RecordRun(worker, j, t, "failed");
        Requeue(j, t, true);
        return true;
      });
      if (worker.admission == Admission::kDraining && worker.running.empty()) {
        worker.admission = Admission::kDrained;
      }
    }
    worker.was_down = down;
    if (t - worker.probe_at >= worker.spec->probe_every_s) Probe(worker, t);
  }

  void Probe(SimWorker& worker, double t) {
    worker.probe_at = t;
    worker.probe_ok = !worker.FaultActive(FailureKind::kGpuUnavailable, t) &&
                      !worker.FaultActive(FailureKind::kNoEvidence, t) &&
                      t >= worker.probe_fails_until;
    if (worker.probe_ok) worker.refusing = false;
  }

  void Complete(SimWorker& worker, double t) {
    for (std::size_t k = 0; k < worker.running.size();) {
      const int j = worker.running[k];
      SimJob& job = jobs_[j];
      if (job.end_s > t) {
        ++k;
        continue;
      }
      worker.running.erase(worker.running.begin() + k);
      if (job.run + 1 < job.spec->runs.size()) {
        RecordedRunEnded(j, t);
      } else {
        Finished(worker, j, t);
      }
    }
    if (worker.admission == Admission::kDraining && worker.running.empty()) {
      worker.admission = Admission::kDrained;
    }
  }

  void Finished(SimWorker& worker, int j, double t) {
    SimJob& job = jobs_[j];
    if (scaler_) scaler_->JobFinished(worker);
    if (worker.FaultActive(FailureKind::kNoEvidence, t) || worker.evidence_fails_next) {
      worker.evidence_fails_next = false;
      // Finished without hardware evidence: the worker's gate fails the job and refuses more.
      worker.evidence = false;
      ++worker.failed;
      worker.refusing = true;
      ++result_.retries;
      RecordRun(worker, j, t, "failed");
      Requeue(j, t, true);
      return;
    }
    worker.evidence = true;
    ++worker.completed;
    RecordRun(worker, j, t, "completed");
    const double height = job.spec->shape.resolution;
    const double pixels = height * height * 16 / 9 * job.spec->shape.fps;
    worker.last_job =
        LastJob{job.need.job_class, pixels * job.spec->shape.duration.count() / job.encode_s / 1e6,
                job.spec->shape.duration.count() / job.encode_s};
    job.state = JobState::kDone;
    --outstanding_;
    ++result_.completed;
    last_completion_ = std::max(last_completion_, t);
    for (int child : job.children) {
      if (jobs_[child].arrived && jobs_[child].state == JobState::kWaiting) MakePending(child, t);
    }
  }

  // A replayed job waits for the worker that really ran it.
  // So the simulated policy sees the real queue.
  // The simulated policy may take that worker out of service where the real one did not.
  // Then any worker its gates pass runs it, for its recorded time.
  // Else it would wait for ever.
  bool Accepts(const SimWorker& worker, const SimJob& job) const {
    if (!PassesHardGates(job.need, worker.spec->capabilities) ||
        !(worker.classes & Bit(job.need.job_class))) {
      return false;
    }
    const TraceRun* run = RecordedRun(job);
    if (run == nullptr || run->worker == worker.spec->name) return true;
    const auto owner = worker_index_.find(run->worker);
    if (owner == worker_index_.end()) return true;
    const SimWorker& own = workers_[owner->second];
    return own.admitted &&
           (own.admission == Admission::kDraining || own.admission == Admission::kDrained);
  }

  // Whether `worker` may take one more job at `t`.
  bool HasFreeSlot(const SimWorker& worker, double t) const {
    if (!worker.IsPoweredUp(t) || worker.admission != Admission::kAvailable || worker.refusing) {
      return false;
    }
    if (worker.FaultActive(FailureKind::kGpuUnavailable, t) ||
        worker.FaultActive(FailureKind::kThermal, t)) {
      return false;
    }
    return scaler_ ? scaler_->HasFreeSlot(worker) : worker.HasRoom();
  }

  // PeerTube's hand-out: every free runner asks, in no fixed order.
  // It takes the first job of the priority-ordered list its gate accepts.
  // The first accept wins.
  void HandOut(double t) {
    if (pending_.empty()) return;
    free_.clear();
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (HasFreeSlot(workers_[i], t)) free_.push_back(static_cast<int>(i));
    }
    std::shuffle(free_.begin(), free_.end(), random_);
    for (int w : free_) {
      SimWorker& worker = workers_[w];
      while (HasFreeSlot(worker, t) && !pending_.empty()) {
        auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto& entry) {
          return Accepts(worker, jobs_[entry.second]);
        });
        if (it == pending_.end()) break;
        const int j = it->second;
        pending_.erase(it);
        Start(worker, w, j, t);
      }
      if (pending_.empty()) break;
    }
  }

  void RecordRun(const SimWorker& worker, int j, double t, const char* outcome) {
    if (!options_.keep_log) return;
    result_.runs.push_back(
        JobRunRecord{jobs_[j].spec->id, worker.spec->name, jobs_[j].started_s, t, outcome});
  }

  void Start(SimWorker& worker, int w, int j, double t) {
    SimJob& job = jobs_[j];
    job.state = JobState::kRunning;
    job.worker = w;
    job.wait_s += t - job.pending_since;
    job.started_s = t;
    const JobShape& shape = job.spec->shape;
    job.encode_s = std::max(0.5, ReferenceEncodeSeconds(shape) / worker.spec->speed);
    // Download of the source (about 5 Mb/s of video) and a fixed cost for the rest.
    const double transfer_s =
        2 + shape.duration.count() * 5 / std::max(1.0, worker.spec->download_mbps);
    job.end_s = t + job.encode_s + transfer_s;
    // A replayed job runs as long as it really ran.
    if (const TraceRun* run = RecordedRun(job)) {
      job.encode_s = run->run_s;
      job.end_s = t + run->run_s;
    }
    worker.running.push_back(j);
    if (scaler_) scaler_->JobStarted(worker);
  }

  void FillStatus(const SimWorker& worker, double t, WorkerStatus& status) const {
    status.vendor = worker.spec->vendor;
    status.capabilities = worker.spec->capabilities;
    status.name = worker.spec->name;
    status.wakeable = worker.spec->wakeable;
    status.on_battery = worker.spec->on_battery;
    status.readable = worker.IsPoweredUp(t) && !worker.FaultActive(FailureKind::kUnreadable, t);
    const int running = static_cast<int>(worker.running.size());
    switch (worker.admission) {
      case Admission::kAvailable:
        status.state = running >= worker.spec->concurrency ? AdmissionState::kBusy
                                                           : AdmissionState::kAvailable;
        break;
      case Admission::kDraining:
        status.state = AdmissionState::kDraining;
        break;
      case Admission::kStarting:
      case Admission::kDrained:
        status.state = AdmissionState::kDrained;
        break;
    }
    if (worker.FaultActive(FailureKind::kThermal, t))
      status.state = AdmissionState::kThermalThrottled;
    if (worker.FaultActive(FailureKind::kGpuUnavailable, t) || worker.refusing) {
      status.state = AdmissionState::kGpuUnavailable;
    }
    status.active_jobs = running;
    status.concurrency = worker.spec->concurrency;
    status.sessions_active = running + (t < worker.held_until ? worker.held_sessions : 0);
    status.sessions_cap = worker.spec->sessions_cap;
    status.vram_free_mb = std::max(0.0, worker.spec->vram_free_mb - 400.0 * running);
    status.enc_util_pct = std::min(100.0, 80.0 * running / worker.spec->concurrency);
    status.probe_age = Seconds(t - worker.probe_at);
    status.probe_ok = worker.probe_ok;
    status.hw_evidence_ok = worker.evidence;
    status.realtime_factor_ewma = worker.spec->speed;
    status.download_mbps = worker.spec->download_mbps;
    status.upload_mbps = worker.spec->download_mbps;
    status.jobs_completed = worker.completed;
    status.jobs_failed = worker.failed;
    status.last_job = worker.last_job;
  }

  // The outage the job list is in at `t`, if any.
  const std::pair<double, double>* QueueOutage(double t) const {
    for (const auto& outage : options_.queue_outages) {
      if (t >= outage.first && t < outage.first + outage.second) return &outage;
    }
    return nullptr;
  }

  // Every cycle: the statuses, the class gates, P for the plot, and ours' decision.
  void Observe(double t) {
    // Filled in place, so that their strings keep their storage from one cycle to the next.
    signals_.workers.resize(workers_.size());
    for (std::size_t i = 0; i < workers_.size(); ++i)
      FillStatus(workers_[i], t, signals_.workers[i]);
    signals_.queue.pending.resize(pending_.size());
    std::size_t k = 0;
    for (const auto& [priority, j] : pending_) {
      const SimJob& job = jobs_[j];
      PendingJob& pending = signals_.queue.pending[k++];
      pending.type = job.spec->type;
      pending.shape = job.spec->shape;
      pending.age = Seconds(t - job.pending_since);
    }
    const std::pair<double, double>* outage = QueueOutage(t);
    signals_.queue.read_ok = outage == nullptr;
    signals_.queue.data_age = outage ? Seconds(t - outage->first) : Seconds(0);
    const double pressure = MarkGateWaits(t);
    RecordPressure(t, scaler_ ? pressure : DecideForOurs(t));
  }

  // Ours' cycle: Decide, its actions carried out, and with keep_log what it did and said.
  // Returns its P.
  double DecideForOurs(double t) {
    std::unordered_map<std::string, std::string> before;
    if (options_.keep_log) {
      for (const WorkerRecord& record : pool_.workers) {
        before.emplace(record.name, ManagerStateName(record.state));
      }
    }
    Decision decision = Decide(std::move(pool_), signals_, At(t), config_);
    pool_ = std::move(decision.state);
    for (const Action& action : decision.actions) Apply(action, t);
    if (options_.keep_log) LogDecision(t, decision, before);
    return decision.pressure;
  }

  void LogDecision(double t, const Decision& decision,
                   std::unordered_map<std::string, std::string>& before) {
    for (const Action& action : decision.actions) {
      std::string after;
      for (const WorkerRecord& record : pool_.workers) {
        if (record.name == action.worker) after = ManagerStateName(record.state);
      }
      std::string said;
      for (const Reason& reason : decision.reasons) {
        if (reason.code == action.reason && reason.worker == action.worker) said = reason.text;
      }
      result_.actions.push_back({t, action, before[action.worker], after, said});
    }
    for (const Reason& reason : decision.reasons) {
      result_.log.push_back(FormatDuration(Seconds(t)) + " " + reason.text);
      result_.reasons.push_back({t, reason});
    }
  }

  void RecordPressure(double t, double pressure) {
    int on = 0;
    int slots = 0;
    for (const SimWorker& worker : workers_) {
      const bool holds = scaler_ ? scaler_->Holds(worker) : worker.IsInService();
      on += holds;
      if (holds) slots += worker.spec->concurrency;
    }
    PressurePoint point{t, pressure, on, static_cast<int>(pending_.size())};
    std::array<int, kJobClassCount> count{};
    std::array<double, kJobClassCount> oldest{};
    for (const PendingJob& job : signals_.queue.pending) {
      const std::size_t i = Index(ClassifyJob(job.shape, config_.gates.bounds));
      ++count[i];
      oldest[i] = std::max(oldest[i], job.age.count());
      point.oldest_wait_s = std::max(point.oldest_wait_s, job.age.count());
    }
    for (std::size_t i = 0; i < kJobClassCount; ++i) {
      if (count[i] > 0)
        point.class_pressure[i] =
            PressureIndex(count[i], slots, Seconds(oldest[i]), config_.pressure);
    }
    result_.pressure.push_back(point);
  }

  // Marks the pending jobs whose class passes no serving worker's gates.
  // Returns the pressure over every class at once, for the baselines' plot.
  // Ours plots its own P.
  double MarkGateWaits(double t) {
    int slots = 0;
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (HasFreeSlot(workers_[i], t) ||
          (workers_[i].admission == Admission::kAvailable && !workers_[i].running.empty())) {
        slots += workers_[i].spec->concurrency;
      }
    }
    std::vector<std::pair<JobNeed, bool>> needs;
    int demand = 0;
    Duration oldest = Seconds(0);
    for (const auto& [priority, j] : pending_) {
      SimJob& job = jobs_[j];
      if (job.unservable) continue;
      ++demand;
      oldest = std::max(oldest, Seconds(t - job.pending_since));
      auto found = std::find_if(needs.begin(), needs.end(),
                                [&](const auto& entry) { return entry.first == job.need; });
      if (found == needs.end()) {
        bool served = false;
        for (std::size_t i = 0; i < workers_.size() && !served; ++i) {
          served = workers_[i].admission == Admission::kAvailable && workers_[i].IsPoweredUp(t) &&
                   PassesGates(job.need, signals_.workers[i], 1.0, config_.gates);
        }
        found = needs.insert(needs.end(), {job.need, served});
      }
      if (!found->second && !job.gated) {
        job.gated = true;
        ++result_.class_gate_waits;
      }
    }
    return PressureIndex(demand, slots, oldest, config_.pressure);
  }

  // Ours' actions, as the control channel would carry them out.
  void Apply(const Action& action, double t) {
    auto found = worker_index_.find(action.worker);
    if (found == worker_index_.end()) return;
    SimWorker& worker = workers_[found->second];
    switch (action.kind) {
      case ActionKind::kEnable:
        ++result_.promotions;
        worker.classes = kEveryClass;
        if (worker.admission == Admission::kDraining) {
          worker.admission = Admission::kAvailable;
        } else if (worker.admission == Admission::kDrained) {
          // A SPARE or WARM worker's service is up: enabling it opens its gate.
          worker.admission = Admission::kStarting;
          worker.available_at = std::max(t, worker.powered_at) + worker.spec->EnableSeconds();
        }
        break;
      case ActionKind::kDrain:
        if (action.reason == ReasonCode::kDemoted || action.reason == ReasonCode::kWorkReleased) {
          ++result_.demotions;
        }
        if (worker.admission != Admission::kDrained) {
          worker.admission = worker.running.empty() ? Admission::kDrained : Admission::kDraining;
        }
        break;
      case ActionKind::kSetClasses:
        worker.classes = action.classes;
        break;
      case ActionKind::kProbe:
        if (worker.IsPoweredUp(t)) Probe(worker, t);
        break;
      case ActionKind::kWake:
        if (!worker.powered) {
          worker.powered = true;
          worker.powered_at = t + worker.spec->boot_s;
          worker.probe_at = worker.powered_at;
          worker.admission = Admission::kDrained;
        }
        break;
      case ActionKind::kSuspend:
        // Asked only of a worker with no job; one with a job would lose it.
        InterruptJobs(worker, t);
        worker.powered = false;
        worker.admission = Admission::kDrained;
        break;
    }
  }

  // SimFleet, for the baselines.
  std::vector<SimWorker>& Workers() override { return workers_; }
  const SimJob& Job(int j) const override { return jobs_[j]; }
  const PendingJobs& Pending() const override { return pending_; }
  const PoolConfig& Config() const override { return config_; }
  void InterruptJobs(SimWorker& worker, double t) override {
    for (int j : worker.running) {
      ++result_.interrupted;
      RecordRun(worker, j, t, "interrupted");
      Requeue(j, t, false);
    }
    worker.running.clear();
  }
  void CountPromotion() override { ++result_.promotions; }
  void CountDemotion() override { ++result_.demotions; }

  SimResult Finish(double t) {
    std::vector<double> waits;
    for (const SimJob& job : jobs_) {
      if (job.state == JobState::kDone) waits.push_back(job.wait_s);
    }
    std::sort(waits.begin(), waits.end());
    result_.wait_p50_s = Percentile(waits, 0.50);
    result_.wait_p95_s = Percentile(waits, 0.95);
    result_.wait_max_s = waits.empty() ? 0 : waits.back();
    const double first = jobs_.empty() ? 0 : jobs_[arrivals_.front()].spec->at_s;
    result_.makespan_s = std::max(0.0, last_completion_ - first);
    result_.worker_hours = worker_seconds_ / 3600;
    result_.busy_hours = busy_seconds_ / 3600;
    result_.idle_hours = result_.worker_hours - result_.busy_hours;
    result_.unfinished = outstanding_;
    result_.simulated_s = t;
    for (const SimWorker& worker : workers_) {
      SimWorkerEnd end{.name = worker.spec->name,
                       .manager_state = "SPARE",
                       .admission_state = AdmissionName(worker.admission),
                       .active_jobs = static_cast<int>(worker.running.size()),
                       .concurrency = worker.spec->concurrency,
                       .completed = worker.completed,
                       .failed = worker.failed,
                       .evidence_ok = worker.evidence};
      if (scaler_) {
        end.manager_state = scaler_->Holds(worker) ? "ACTIVE" : (worker.powered ? "SPARE" : "COLD");
      } else {
        for (const WorkerRecord& record : pool_.workers) {
          if (record.name == end.name) end.manager_state = ManagerStateName(record.state);
        }
      }
      result_.workers_at_end.push_back(std::move(end));
    }
    return std::move(result_);
  }

  const SimOptions& options_;
  PoolConfig config_;  // options_.config, as the trace's config events change it
  std::vector<const TraceEvent*> events_;
  std::size_t next_event_ = 0;
  std::mt19937 random_;
  std::vector<SimJob> jobs_;
  std::vector<int> arrivals_;
  std::size_t next_arrival_ = 0;
  std::vector<SimWorker> workers_;
  std::unordered_map<std::string, int> worker_index_;
  PendingJobs pending_;
  std::set<std::pair<double, int>> returns_;  // (when, job): replayed jobs PeerTube hands out again
  std::vector<int> free_;
  int outstanding_ = 0;
  double last_arrival_ = 0;
  double last_completion_ = 0;
  double horizon_ = 0;
  double worker_seconds_ = 0;
  double busy_seconds_ = 0;
  PoolState pool_;
  Signals signals_;
  std::unique_ptr<BaselineScaler> scaler_;  // null for ours
  SimResult result_;
};

}  // namespace

std::string_view PolicyKindName(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kPoolManager:
      return "ours";
    case PolicyKind::kHpa:
      return "hpa";
    case PolicyKind::kKeda:
      return "keda";
    case PolicyKind::kArc:
      return "arc";
    case PolicyKind::kStatic:
      return "static";
    case PolicyKind::kBound:
      return "bound";
  }
  return "?";
}

std::optional<PolicyKind> ParsePolicyKind(std::string_view name) {
  for (PolicyKind kind : {PolicyKind::kPoolManager, PolicyKind::kHpa, PolicyKind::kKeda,
                          PolicyKind::kArc, PolicyKind::kStatic, PolicyKind::kBound}) {
    if (PolicyKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

SimResult Simulate(const Trace& trace, const std::vector<SimWorkerSpec>& workers,
                   const SimOptions& options) {
  return Simulation(trace, workers, options).Run();
}

}  // namespace mc::pool
