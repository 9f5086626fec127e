// What the pool manager shows a person: the last cycle's view of the pool and each worker.
// It is shown as JSON (GET /status, `pool status`) and as Prometheus metrics (GET /metrics).
// Plain values, filled by the service's loop and read by the HTTP server's thread.
#pragma once

#include <map>
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

struct WorkerRow {
  std::string name;
  std::string manager_state;    // COLD, SPARE, WARM, ACTIVE, DRAINING, COOLDOWN
  std::string admission_state;  // the worker's own, or UNREADABLE
  int active_jobs = 0;
  int concurrency = 0;
  std::map<std::string, double> weights;  // per class, the learned weight
  std::string classes;                    // the classes its gate was last given ("S+M")
  std::string last_reason;
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
  std::vector<WorkerRow> workers;
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
