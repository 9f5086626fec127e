// A small pool driven cycle by cycle with an injected clock: the fixture plays the workers'
// side of each action (an enabled worker turns AVAILABLE, a drained one DRAINED), so a test
// states only the signals it is about.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/policy.h"

namespace mc::pool::testing {

inline WorkerStatus SpareWorker(const std::string& name, int concurrency = 2) {
  WorkerStatus status;
  status.name = name;
  status.state = AdmissionState::kDrained;
  status.concurrency = concurrency;
  status.probe_age = Seconds(30);
  status.realtime_factor_ewma = 6;
  status.download_mbps = 100;
  status.vram_free_mb = 20000;
  return status;
}

inline PendingJob Job(int resolution = 720, Duration age = Seconds(0),
                      Duration length = Seconds(60)) {
  PendingJob job;
  job.type = "vod-web-video-transcoding";
  job.shape.resolution = resolution;
  job.shape.duration = length;
  job.age = age;
  return job;
}

// PolicyRun runs the design's rules unless a test sets `config.profile`: the rules the tests
// of the windows and the stagger are about. The work-aware profile has tests of its own.
class PolicyRun {
 public:
  // The statuses are reserved up front, so that a reference Add returned stays valid.
  PolicyRun() {
    signals.workers.reserve(64);
    config.profile = PolicyProfile::kDesign;
  }

  WorkerStatus& Add(WorkerStatus status, ManagerState state = ManagerState::kSpare) {
    WorkerRecord record;
    record.name = status.name;
    record.state = state;
    record.since = now;
    pool.workers.push_back(record);
    if (state == ManagerState::kActive) status.state = AdmissionState::kAvailable;
    signals.workers.push_back(std::move(status));
    return signals.workers.back();
  }
  WorkerStatus& Status(const std::string& name) {
    return *std::find_if(signals.workers.begin(), signals.workers.end(),
                         [&](const WorkerStatus& s) { return s.name == name; });
  }
  ManagerState StateOf(const std::string& name) const {
    return std::find_if(pool.workers.begin(), pool.workers.end(),
                        [&](const WorkerRecord& r) { return r.name == name; })
        ->state;
  }
  // Pending sets the queue to `count` jobs like `job`.
  void Pending(int count, PendingJob job = Job()) { signals.queue.pending.assign(count, job); }

  // Step runs one cycle at `now`, applies its actions, then moves the clock one cycle on.
  const Decision& Step() {
    last = Decide(pool, signals, now, config);
    pool = last.state;
    for (const Action& action : last.actions) {
      all_actions.push_back(action);
      WorkerStatus& status = Status(action.worker);
      if (action.kind == ActionKind::kEnable) status.state = AdmissionState::kAvailable;
      if (action.kind == ActionKind::kDrain) {
        status.state =
            status.active_jobs > 0 ? AdmissionState::kDraining : AdmissionState::kDrained;
      }
      if (action.kind == ActionKind::kProbe) status.probe_age = Seconds(0);
      if (action.kind == ActionKind::kSuspend) status.readable = false;
    }
    now += config.cycle;
    return last;
  }
  // RunFor steps through `span` of cycles.
  void RunFor(Duration span) {
    const TimePoint end = now + span;
    while (now < end) Step();
  }
  int Count(ActionKind kind) const {
    return static_cast<int>(std::count_if(all_actions.begin(), all_actions.end(),
                                          [&](const Action& a) { return a.kind == kind; }));
  }
  bool Said(ReasonCode code) const {
    return std::any_of(last.reasons.begin(), last.reasons.end(),
                       [&](const Reason& r) { return r.code == code; });
  }
  std::string Reasons() const {
    std::string text;
    for (const Reason& reason : last.reasons) text += reason.text + "\n";
    return text;
  }

  PoolConfig config;
  PoolState pool;
  Signals signals;
  TimePoint now = At(1000000);
  Decision last;
  std::vector<Action> all_actions;
};

}  // namespace mc::pool::testing
