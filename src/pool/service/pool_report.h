// What the pool manager shows a person: the last cycle's view of the pool and each worker.
// It is shown as JSON (GET /status, `pool status`), as Prometheus metrics (GET /metrics) and
// as the admin's page (GET /, pool/page).
// Plain values, filled by the service's loop and read by the HTTP server's thread.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

// Counters since the service started.
struct PoolCounters {
  long cycles = 0;
  long promotions = 0;
  long demotions = 0;
  long drains = 0;                 // every drain asked, a demotion's or a fault's
  long actions_failed = 0;         // channel failures, each retried
  long held_for_lost_signals = 0;  // cycles the policy held for a lost queue or worker
  long queue_read_failures = 0;
  long queue_reads = 0;        // successful reads of PeerTube's job list
  long peertube_requests = 0;  // every request sent to PeerTube's API, the login's included
};

// An action the manager decided and could not apply: the worker did not hear it.
struct FailedAction {
  std::string action;  // "enable box-1:gpu0 at concurrency 1"
  std::string error;   // the last attempt's answer
  int attempts = 0;
};

struct WorkerRow {
  std::string name;
  std::string manager_state;    // COLD, SPARE, WARM, ACTIVE, DRAINING, COOLDOWN
  std::string admission_state;  // the worker's own, or UNREADABLE
  int active_jobs = 0;
  int concurrency = 0;
  std::map<std::string, double> weights;  // per class, the learned weight
  std::string classes;                    // the classes its gate was last given ("S+M")
  std::string last_reason;
  std::optional<FailedAction> failed;  // the action still tried again, if one failed
  // What its status document last said of its GPU, for the page (worker_facts.h).
  std::string vendor;
  std::string gpu_model;
  int sessions_active = 0;
  int sessions_cap = 0;  // 0: no cap stated
  std::optional<bool> evidence_ok;
  std::string evidence;
  std::optional<bool> self_test_ok;
  std::string self_test_at;
  std::string self_test_detail;
};

// Pending jobs of one class and job type.
struct QueueRow {
  std::string job_class;  // S, M, L, XL
  std::string type;
  int count = 0;
  double oldest_age_s = 0;
};

// One of the last decisions: an action with its reason, or a reason said without one.
struct DecisionRow {
  std::string at;      // ISO-8601 UTC
  std::string worker;  // empty for the pool as a whole
  std::string action;  // "enable w1 at concurrency 2"; empty for a reason alone
  std::string reason;
};

// Pending jobs of one type the pool does not serve.
struct NotServedRow {
  int count = 0;
  double oldest_age_s = 0;
};

struct PoolReport {
  std::string generated_at;  // ISO-8601 UTC
  double pressure = 0;
  int capacity_slots = 0;
  int demand = 0;
  bool queue_read_ok = false;
  double queue_data_age_s = 0;
  std::map<std::string, int> pending_by_type;
  double oldest_pending_age_s = 0;
  std::map<std::string, NotServedRow> not_served;  // by job type
  std::vector<QueueRow> queue_by_class;            // by class, then job type
  std::map<std::string, double> pressure_by_class;
  double wait_target_s = 0;  // the wait the page draws as the target; 0: none
  std::vector<WorkerRow> workers;
  std::vector<DecisionRow> decisions;  // newest first
  std::vector<std::string> unservable;
  PoolCounters counters;
};

// FormatUtc writes an instant as "2026-12-03T06:15:02Z".
std::string FormatUtc(pool::TimePoint when);

std::string ReportToJson(const PoolReport& report);
Result<PoolReport> ReportFromJson(const std::string& json);
std::string ReportToPrometheus(const PoolReport& report);
// ReportTable is `pool status`'s table: one line per worker.
std::string ReportTable(const PoolReport& report);

}  // namespace mc::pool
