#include "pool/policy/simulator.h"

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

namespace mc::pool {

namespace {

// PeerTube's RUNNER_JOBS.MAX_FAILURES: the fifth error is final.
constexpr int kMaxFailures = 5;

enum class JobState { kWaiting, kPending, kRunning, kDone, kErrored };
enum class Admission { kDrained, kStarting, kAvailable, kDraining };

struct SimJob {
  const TraceJob* spec = nullptr;
  int parent = -1;
  std::vector<int> children;
  JobState state = JobState::kWaiting;
  bool arrived = false;
  double pending_since = 0;
  double wait_s = 0;
  int failures = 0;
  std::size_t run = 0;  // which of its recorded runs is next, or under way
  int worker = -1;
  double started_s = 0;
  double end_s = 0;
  double encode_s = 0;
  JobNeed need;
  bool unservable = false;
  bool gated = false;
};

struct SimWorker {
  const SimWorkerSpec* spec = nullptr;
  bool powered = true;
  double powered_at = 0;  // a booting box is up from then on
  Admission admission = Admission::kDrained;
  double available_at = 0;
  std::vector<int> running;
  ClassMask classes = kEveryClass;
  double probe_at = 0;
  bool probe_ok = true;
  bool refusing = false;  // its own gate refuses work after a job without evidence
  bool admitted = false;  // it has admitted jobs at some time of the run
  bool was_down = false;
  std::optional<bool> evidence;
  int completed = 0;
  int failed = 0;
  std::optional<LastJob> last_job;
  bool arc_runner = false;
  bool arc_used = false;
  int held_sessions = 0;  // NVENC sessions another process holds, until `held_until`
  double held_until = 0;
  bool evidence_fails_next = false;
  double probe_fails_until = -1;

  bool FaultActive(FailureKind kind, double t) const {
    if (spec->failure && spec->failure->kind == kind && spec->failure->ActiveAt(t)) return true;
    for (const WorkerFailure& later : spec->later_failures) {
      if (later.kind == kind && later.ActiveAt(t)) return true;
    }
    return false;
  }
  bool Up(double t) const { return powered && t >= powered_at; }
  bool On() const {
    return powered && (admission == Admission::kStarting || admission == Admission::kAvailable ||
                       admission == Admission::kDraining);
  }
};

// The percentile of sorted `values`, nearest rank.
double Percentile(const std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  const std::size_t rank = static_cast<std::size_t>(std::ceil(fraction * values.size()));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

class Simulation {
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
      worker.powered = !specs[i].cold || options.policy == PolicyKind::kStatic;
      // Probes are spread over the interval, as boxes enrolled at different times are.
      worker.probe_at = specs[i].probe_age_at_start >= 0
                            ? -specs[i].probe_age_at_start
                            : -std::fmod(i * 37.0, std::max(1.0, specs[i].probe_every_s));
      worker_index_.emplace(specs[i].name, static_cast<int>(i));
    }
    SetUpPolicy();
  }

  SimResult Run() {
    const double cap = horizon_ + 3 * 86400;
    double t = 0;
    std::size_t cycle = 0;
    double next_observe = options_.cycles_at_s.empty() ? 0 : options_.cycles_at_s.front();
    double next_sync = 0;
    for (;; t += options_.step_s) {
      Happen(t);
      Arrive(t);
      StepWorkers(t);
      if (options_.policy == PolicyKind::kArc) ScaleArc(t);
      if (options_.policy == PolicyKind::kBound) ScaleBound(t);
      if (t >= next_observe) {
        Observe(t);
        // The workers are read and the policy asked once a cycle, as the service does: at
        // the given instants, then a cycle apart.
        ++cycle;
        next_observe = cycle < options_.cycles_at_s.size() ? options_.cycles_at_s[cycle]
                                                           : next_observe + config_.cycle.count();
      }
      if (options_.policy == PolicyKind::kHpa && t >= next_sync) {
        ScaleHpa(t);
        next_sync += options_.hpa.sync_s;
      }
      if (options_.policy == PolicyKind::kKeda && t >= next_sync) {
        ScaleKeda(t);
        next_sync += options_.keda.polling_s;
      }
      HandOut(t);
      if ((t >= horizon_ && outstanding_ == 0) || t >= cap) break;
    }
    return Finish(t);
  }

 private:
  // Where each policy starts: ours with min_active workers ACTIVE and the rest SPARE (or
  // COLD), the HPA at its minimum, ARC at minRunners, static with every worker on.
  void SetUpPolicy() {
    int on = 0;
    switch (options_.policy) {
      case PolicyKind::kPoolManager:
        on = options_.start_as_service ? 0 : options_.config.hysteresis.min_active;
        break;
      case PolicyKind::kHpa:
        on = options_.hpa.min_replicas;
        break;
      case PolicyKind::kKeda:
        on = options_.keda.min_replicas;
        break;
      case PolicyKind::kBound:
        on = options_.config.hysteresis.min_active;
        break;
      case PolicyKind::kArc:
        on = options_.arc.min_runners;
        break;
      case PolicyKind::kStatic:
        on = static_cast<int>(workers_.size());
        break;
    }
    // A worker the workers file states ACTIVE admits jobs from the start under every policy.
    for (SimWorker& worker : workers_) {
      if (worker.spec->start_state == ManagerState::kActive && worker.powered) {
        worker.admission = Admission::kAvailable;
        worker.arc_runner = options_.policy == PolicyKind::kArc;
        --on;
      }
    }
    for (SimWorker& worker : workers_) {
      const bool stated_active = worker.admission == Admission::kAvailable;
      if (options_.start_as_service && worker.spec->starts_available) {
        worker.admission = Admission::kAvailable;
      }
      if (options_.policy == PolicyKind::kPoolManager && !options_.start_as_service) {
        WorkerRecord record;
        record.name = worker.spec->name;
        record.state = worker.powered ? ManagerState::kSpare : ManagerState::kCold;
        if (worker.powered && worker.spec->start_state == ManagerState::kWarm) {
          record.state = ManagerState::kWarm;
        }
        if (stated_active) record.state = ManagerState::kActive;
        if (worker.spec->weight) {
          // As if learned from many jobs, so that the shrinkage toward the prior is negligible.
          for (ClassWeight& weight : record.weights)
            weight = ClassWeight{*worker.spec->weight, 1000};
        }
        record.since = At(0);
        pool_.workers.push_back(record);
      }
      if (stated_active) continue;
      if (on > 0 && worker.powered) {
        --on;
        worker.admission = Admission::kAvailable;
        worker.arc_runner = options_.policy == PolicyKind::kArc;
        if (options_.policy == PolicyKind::kPoolManager && !options_.start_as_service) {
          pool_.workers.back().state = ManagerState::kActive;
        }
      }
    }
  }

  // The trace's events that are due: a configuration change, sessions another process
  // holds, one job's failed evidence check, a spell of failing probes.
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
          // It probes now and fails, and every probe fails until the spell is over.
          worker.probe_fails_until = until;
          if (worker.Up(t)) Probe(worker, t);
          break;
        case TraceEventKind::kConfig:
          break;
      }
    }
  }

  void Pend(int j, double t) {
    SimJob& job = jobs_[j];
    job.state = JobState::kPending;
    job.pending_since = t;
    job.worker = -1;
    pending_.insert({job.spec->priority, j});
  }

  void Arrive(double t) {
    while (!returns_.empty() && returns_.begin()->first <= t) {
      Pend(returns_.begin()->second, t);
      returns_.erase(returns_.begin());
    }
    while (next_arrival_ < arrivals_.size() && jobs_[arrivals_[next_arrival_]].spec->at_s <= t) {
      const int j = arrivals_[next_arrival_++];
      SimJob& job = jobs_[j];
      job.arrived = true;
      if (job.parent < 0 || jobs_[job.parent].state == JobState::kDone) {
        Pend(j, t);
      } else if (jobs_[job.parent].state == JobState::kErrored) {
        Error(j);
      }
    }
  }

  // A job that can never run: it and its waiting children are done with, as errored.
  void Error(int j) {
    SimJob& job = jobs_[j];
    if (job.state == JobState::kErrored) return;
    if (job.state == JobState::kPending) pending_.erase({job.spec->priority, j});
    job.state = JobState::kErrored;
    ++result_.errored;
    if (!job.unservable) --outstanding_;
    for (int child : job.children) Error(child);
  }

  // A job taken off its worker: back to pending, as PeerTube does with an abort or an error.
  void TakeOff(int j, double t, bool counts_as_failure) {
    SimJob& job = jobs_[j];
    if (counts_as_failure && ++job.failures >= kMaxFailures) {
      job.state = JobState::kWaiting;
      Error(j);
      return;
    }
    Pend(j, t);
  }

  // The run of a replayed job that is next or under way, as its record states it; null
  // where the job's runs are modelled.
  const TraceRun* RecordedRun(const SimJob& job) const {
    return job.run < job.spec->runs.size() ? &job.spec->runs[job.run] : nullptr;
  }

  // A recorded run that really ended without completing the job is over: the job waits
  // until PeerTube really had it pending again, and its next run is the next recorded one.
  void RecordedRunEnded(int j, double t) {
    SimJob& job = jobs_[j];
    const double again = job.spec->runs[job.run].again_s;
    ++job.run;
    ++result_.retries;
    job.worker = -1;
    if (again <= t) {
      Pend(j, t);
    } else {
      job.state = JobState::kWaiting;
      returns_.insert({again, j});
    }
  }

  // One pass over the workers a step: their own timers, the jobs that finish, and the
  // worker-hours; one pass, since a day of a thousand workers is 86 million of them.
  void StepWorkers(double t) {
    for (SimWorker& worker : workers_) {
      if (worker.Up(t)) Advance(worker, t);
      worker.admitted |= worker.admission == Admission::kAvailable;
      if (!worker.running.empty()) Complete(worker, t);
      // A box woken for ours is held from its wake, as a booting pod is for the baselines.
      const bool booting =
          options_.policy == PolicyKind::kPoolManager && worker.powered && !worker.Up(t);
      const bool on =
          options_.policy == PolicyKind::kArc ? worker.arc_runner : worker.On() || booting;
      if (on) {
        worker_seconds_ += options_.step_s;
        if (!worker.running.empty()) busy_seconds_ += options_.step_s;
      }
    }
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
        TakeOff(j, t, true);
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
    if (options_.policy == PolicyKind::kArc && worker.arc_runner) {
      // An ephemeral runner leaves after its one job.
      worker.arc_runner = false;
      worker.admission = Admission::kDrained;
    }
    if (worker.FaultActive(FailureKind::kNoEvidence, t) || worker.evidence_fails_next) {
      worker.evidence_fails_next = false;
      // Finished without hardware evidence: the worker's gate fails the job and refuses more.
      worker.evidence = false;
      ++worker.failed;
      worker.refusing = true;
      ++result_.retries;
      RecordRun(worker, j, t, "failed");
      TakeOff(j, t, true);
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
      if (jobs_[child].arrived && jobs_[child].state == JobState::kWaiting) Pend(child, t);
    }
  }

  // A replayed job waits for the worker that really ran it, so that the simulated policy
  // sees the real queue. Where the simulated policy took that worker out of service after it
  // had admitted jobs, as the real one did not, any worker its gates pass runs it, for its
  // recorded time: else it would wait for ever.
  bool Takes(const SimWorker& worker, const SimJob& job) const {
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

  bool Free(const SimWorker& worker, double t) const {
    if (!worker.Up(t) || worker.admission != Admission::kAvailable || worker.refusing) return false;
    if (worker.FaultActive(FailureKind::kGpuUnavailable, t) ||
        worker.FaultActive(FailureKind::kThermal, t)) {
      return false;
    }
    if (options_.policy == PolicyKind::kArc) return worker.arc_runner && !worker.arc_used;
    return static_cast<int>(worker.running.size()) < worker.spec->concurrency;
  }

  // PeerTube's hand-out: every free runner asks, in no fixed order, and takes the first job
  // of the priority-ordered list its gate accepts; the first accept wins.
  void HandOut(double t) {
    if (pending_.empty()) return;
    free_.clear();
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (Free(workers_[i], t)) free_.push_back(static_cast<int>(i));
    }
    std::shuffle(free_.begin(), free_.end(), random_);
    for (int w : free_) {
      SimWorker& worker = workers_[w];
      while (Free(worker, t) && !pending_.empty()) {
        auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto& entry) {
          return Takes(worker, jobs_[entry.second]);
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
    if (options_.policy == PolicyKind::kArc) worker.arc_used = true;
  }

  void FillStatus(const SimWorker& worker, double t, WorkerStatus& status) const {
    status.vendor = worker.spec->vendor;
    status.capabilities = worker.spec->capabilities;
    status.name = worker.spec->name;
    status.wakeable = worker.spec->wakeable;
    status.on_battery = worker.spec->on_battery;
    status.readable = worker.Up(t) && !worker.FaultActive(FailureKind::kUnreadable, t);
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
    if (options_.policy == PolicyKind::kPoolManager) {
      std::unordered_map<std::string, std::string> before;
      if (options_.keep_log) {
        for (const WorkerRecord& record : pool_.workers) {
          before.emplace(record.name, ManagerStateName(record.state));
        }
      }
      Decision decision = Decide(std::move(pool_), signals_, At(t), config_);
      pool_ = std::move(decision.state);
      for (const Action& action : decision.actions) Apply(action, t);
      if (options_.keep_log) {
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
      RecordPressure(t, decision.pressure);
    } else {
      RecordPressure(t, pressure);
    }
  }

  void RecordPressure(double t, double pressure) {
    int on = 0;
    for (const SimWorker& worker : workers_) {
      on += options_.policy == PolicyKind::kArc ? worker.arc_runner : worker.On();
    }
    result_.pressure.push_back(PressurePoint{t, pressure, on, static_cast<int>(pending_.size())});
  }

  // Marks the pending jobs whose class no serving worker passes the gates of, and returns
  // the pressure over every class at once, for the baselines' plot (ours plots its own P).
  double MarkGateWaits(double t) {
    int slots = 0;
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (Free(workers_[i], t) ||
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
          served = workers_[i].admission == Admission::kAvailable && workers_[i].Up(t) &&
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
        if (worker.Up(t)) Probe(worker, t);
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
        for (int j : worker.running) {
          ++result_.interrupted;
          RecordRun(worker, j, t, "interrupted");
          TakeOff(j, t, false);
        }
        worker.running.clear();
        worker.powered = false;
        worker.admission = Admission::kDrained;
        break;
    }
  }

  // Starting a pod or a runner: the service start-up, after a boot if the box was off.
  void StartRunner(SimWorker& worker, double t) {
    const double up = worker.powered ? std::max(t, worker.powered_at) : t + worker.spec->boot_s;
    if (!worker.powered) {
      worker.powered = true;
      worker.powered_at = up;
    }
    worker.admission = Admission::kStarting;
    worker.available_at = up + worker.spec->startup_s;
    ++result_.promotions;
  }

  // Stopping a pod: the runner aborts its jobs on SIGTERM, and PeerTube puts them back.
  void KillRunner(SimWorker& worker, double t) {
    for (int j : worker.running) {
      ++result_.interrupted;
      RecordRun(worker, j, t, "interrupted");
      TakeOff(j, t, false);
    }
    worker.running.clear();
    worker.admission = Admission::kDrained;
    worker.arc_runner = false;
    ++result_.demotions;
  }

  void ScaleHpa(double t) {
    std::vector<int> pods = Pods(t);
    const int desired =
        HpaDesired(hpa_, t, static_cast<int>(pending_.size()), static_cast<int>(pods.size()),
                   static_cast<int>(workers_.size()), options_.hpa);
    Resize(std::move(pods), desired, t);
  }

  // The pods, as a ReplicaSet holds them. A pod whose GPU is gone fails its liveness probe
  // and is made again on another node, so it is no pod of its worker any more.
  std::vector<int> Pods(double t) {
    std::vector<int> pods;
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      SimWorker& worker = workers_[i];
      if (worker.admission != Admission::kDrained && worker.running.empty() &&
          worker.FaultActive(FailureKind::kGpuUnavailable, t)) {
        worker.admission = Admission::kDrained;
      }
      if (workers_[i].admission == Admission::kStarting ||
          workers_[i].admission == Admission::kAvailable) {
        pods.push_back(static_cast<int>(i));
      }
    }
    return pods;
  }

  void Resize(std::vector<int> pods, int desired, double t) {
    const int current = static_cast<int>(pods.size());
    if (desired > current) {
      int start = desired - current;
      for (SimWorker& worker : workers_) {
        if (start == 0) break;
        if (worker.admission != Admission::kDrained) continue;
        StartRunner(worker, t);
        --start;
      }
    } else if (desired < current) {
      std::sort(pods.begin(), pods.end(), [&](int a, int b) {
        const bool a_ready = workers_[a].admission == Admission::kAvailable;
        const bool b_ready = workers_[b].admission == Admission::kAvailable;
        if (a_ready != b_ready) return !a_ready;
        return workers_[a].available_at > workers_[b].available_at;
      });
      for (int k = 0; k < current - desired; ++k) KillRunner(workers_[pods[k]], t);
    }
  }

  void ScaleKeda(double t) {
    std::vector<int> pods = Pods(t);
    const int desired =
        KedaDesired(keda_, t, static_cast<int>(pending_.size()), static_cast<int>(pods.size()),
                    static_cast<int>(workers_.size()), options_.keda);
    Resize(std::move(pods), desired, t);
  }

  // The clairvoyant limit. It knows when each running job ends, so it brings a worker in
  // only for a job that no slot will take before its wait reaches the target, as late as that
  // allows (one enable before), and lets a worker go the moment it has no job and none
  // waits. Nothing is interrupted. A greedy with perfect foresight, not a proven optimum.
  void ScaleBound(double t) {
    const double lead = 2;      // an enable of a worker whose service is up
    std::vector<double> frees;  // when each slot of a worker that is on frees, soonest first
    int on = 0;
    for (const SimWorker& worker : workers_) {
      if (!worker.On() || worker.admission == Admission::kDraining) continue;
      ++on;
      const double from = worker.admission == Admission::kStarting ? worker.available_at : t;
      for (int j : worker.running) frees.push_back(std::max(from, jobs_[j].end_s));
      for (int k = static_cast<int>(worker.running.size()); k < worker.spec->concurrency; ++k) {
        frees.push_back(from);
      }
    }
    std::sort(frees.begin(), frees.end());
    int off_slots = 0;
    for (const SimWorker& worker : workers_) {
      if (worker.admission == Admission::kDrained) off_slots += worker.spec->concurrency;
    }
    int late = 0;
    // Walk the pending jobs in hand-out order: each takes the soonest slot; one whose slot
    // comes after its deadline needs a worker now, if its deadline is within the lead.
    std::size_t slot = 0;
    int needed = 0;
    bool waits = false;
    for (const auto& [priority, j] : pending_) {
      if (jobs_[j].unservable) continue;
      waits = true;
      const double deadline = jobs_[j].pending_since + options_.bound_wait_s;
      if (slot < frees.size() && frees[slot] <= deadline) {
        ++slot;
        continue;
      }
      // A job no slot takes in time: a worker when its deadline is near, or at once when
      // more such jobs wait than the workers that are off could take in one round.
      if (deadline - t <= lead) ++needed;
      ++late;
    }
    if (late > off_slots) needed = std::max(needed, late);
    // A box that sleeps is taken as if woken in time: the limit knows the future.
    for (SimWorker& worker : workers_) {
      if (needed <= 0) break;
      if (worker.admission != Admission::kDrained || (worker.powered && !worker.Up(t))) continue;
      if (!worker.powered) {
        worker.powered = true;
        worker.powered_at = t;
        worker.probe_at = t;
      }
      worker.admission = Admission::kStarting;
      worker.available_at = t + worker.spec->EnableSeconds();
      ++result_.promotions;
      needed -= worker.spec->concurrency;
    }
    if (waits) return;
    for (SimWorker& worker : workers_) {
      if (on <= config_.hysteresis.min_active) break;
      if (worker.admission != Admission::kAvailable || !worker.running.empty()) continue;
      worker.admission = Admission::kDrained;
      ++result_.demotions;
      --on;
    }
  }

  void ScaleArc(double t) {
    int runners = 0;
    int running = 0;
    for (const SimWorker& worker : workers_) {
      runners += worker.arc_runner;
      running += static_cast<int>(worker.running.size());
    }
    const int desired = ArcDesired(static_cast<int>(pending_.size()), running,
                                   static_cast<int>(workers_.size()), options_.arc);
    if (runners < desired) {
      int create = desired - runners;
      for (SimWorker& worker : workers_) {
        if (create == 0) break;
        if (worker.arc_runner || !worker.running.empty()) continue;
        worker.arc_runner = true;
        worker.arc_used = false;
        StartRunner(worker, t);
        --create;
      }
    } else if (runners > desired) {
      // Only idle runners are deleted; the server refuses to remove a busy one.
      int surplus = runners - desired;
      for (SimWorker& worker : workers_) {
        if (surplus == 0) break;
        if (!worker.arc_runner || !worker.running.empty() || worker.arc_used) continue;
        KillRunner(worker, t);
        --surplus;
      }
    }
  }

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
  std::set<std::pair<int, int>> pending_;     // (priority, job), PeerTube's hand-out order
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
  HpaState hpa_;
  KedaState keda_;
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
