// PoolService is one pool manager's loop. A cycle:
//  - reads PeerTube's queue (read-only) and every worker's status document;
//  - asks the policy (pool::Decide) what to do;
//  - carries the actions through the control channel;
//  - keeps what a person asks for (pool status, the metrics).
// It never hands out a job: PeerTube does, to whichever admitted worker asks.
//
// Nothing is lost. An action whose channel failed is tried again every cycle.
// That goes on until it takes effect, or a newer action for the worker replaces it.
// A signal that could not be read is given to the policy as lost.
// The queue keeps its last list with its age; a worker reads as unreadable.
// The policy then holds every scale-down that would need it.
// The constructor takes the readers and the channel.
// So the loop runs the same against real workers, a test's, or the Kubernetes pods.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/config.h"
#include "pool/policy/decision.h"
#include "pool/policy/pool_state.h"
#include "pool/policy/signals.h"
#include "pool/service/control_channel.h"
#include "pool/service/logger.h"
#include "pool/service/pool_history.h"
#include "pool/service/pool_report.h"
#include "pool/service/run_record.h"
#include "pool/service/worker_endpoint.h"
#include "pool/service/worker_facts.h"

namespace mc::pool {

struct ServiceInputs {
  // PeerTube's pending jobs as a queue signal at `now_s` (seconds since the epoch).
  std::function<Result<pool::QueueSignal>(double now_s)> read_queue;
  // The worker's status document, as its GET /status answers it. A cycle reads its workers
  // side by side, so this is called from several threads at once.
  std::function<Result<std::string>(const WorkerEndpoint& worker)> read_status;
  // The workers there are now: the configured list, or the StatefulSet's pods.
  std::function<Result<std::vector<WorkerEndpoint>>()> list_workers;
  // Job classes no worker can be given, in words, for the report.
  // In Kubernetes: a worker pod whose claim the scheduler cannot satisfy.
  // Empty when the mode knows of none.
  std::function<std::vector<std::string>()> unservable;
  // How many requests PeerTube has been sent so far, for the report; empty when not known.
  std::function<long()> requests_made;
};

class PoolService {
 public:
  PoolService(pool::PoolConfig policy, pool::Duration queue_poll, ServiceInputs inputs,
              ControlChannel& channel, Logger log);

  // Cycle runs one cycle at `now`; the caller paces the cycles (policy.cycle apart).
  void Cycle(pool::TimePoint now);

  // The report of the last cycle; any thread may ask.
  PoolReport Report() const;
  // What the page draws: the last day's samples, one per cycle or per minute; any thread may ask.
  PoolHistory History() const;

  // Record is given every cycle's inputs and decisions once the cycle's actions are queued
  // (`pool run --record`); unset, nothing is kept of them.
  void SetRecord(std::function<void(CycleRecord)> record) { record_ = std::move(record); }

 private:
  struct PendingAction {
    pool::Action action;
    int attempts = 0;
  };

  pool::QueueSignal ReadQueue(pool::TimePoint now);
  std::vector<pool::WorkerStatus> ReadWorkers();
  void Queue(const pool::Action& action);
  void QueueJobLists(const pool::Signals& signals, pool::TimePoint now);
  void ApplyPending(pool::TimePoint now);
  void LogNewReasons(const std::vector<pool::Reason>& reasons);
  void LogUnservable(const std::vector<std::string>& lines);
  void UpdateReport(const pool::Decision& decision, const pool::Signals& signals,
                    pool::TimePoint now);
  void RecordDecisions(const pool::Decision& decision, pool::TimePoint now);
  std::optional<double> StartedWait(const pool::QueueSignal& queue);

  pool::PoolConfig policy_;
  pool::Duration queue_poll_;
  ServiceInputs inputs_;
  ControlChannel& channel_;
  Logger log_;

  pool::PoolState state_;
  std::vector<WorkerEndpoint> workers_;
  std::optional<pool::QueueSignal> last_queue_;
  std::optional<pool::TimePoint> last_queue_read_;  // the last successful read
  std::optional<pool::TimePoint> last_queue_try_;
  // Keyed by worker and by what the action sets (admission, classes, probe, power).
  // So a newer action replaces an older one of the same kind not yet in effect.
  std::map<std::pair<std::string, int>, PendingAction> pending_;
  std::set<std::pair<std::string, std::string>> said_;  // reasons logged last cycle
  // What each worker's gate was last given: its classes, its job list, and when.
  struct SentEligibility {
    pool::ClassMask classes = pool::kEveryClass;
    std::optional<std::vector<std::string>> jobs;
    pool::TimePoint at;
  };
  std::map<std::string, SentEligibility> eligibility_sent_;
  std::map<std::string, std::string> last_reason_;
  // Per worker, the last action the channel failed to apply, while it is tried again: the report
  // says it, since the manager's state is then what it meant, not what the worker does. An action
  // of its group that goes through clears it.
  struct Failure {
    FailedAction shown;
    int group = 0;
  };
  std::map<std::string, Failure> failed_;
  std::set<std::string> unservable_said_;  // the unservable lines logged, until they clear
  PoolCounters counters_;
  std::function<void(CycleRecord)> record_;
  std::vector<RecordedWorker> read_;            // this cycle's documents, for the record
  std::map<std::string, WorkerFacts> facts_;    // what each worker's document last said, shown
  std::deque<DecisionRow> decisions_;           // the last decisions, newest first
  std::map<std::string, double> pending_ages_;  // the last list's jobs by id, and their ages

  mutable std::mutex report_mutex_;
  PoolReport report_;
  PoolHistory history_;
};

}  // namespace mc::pool
