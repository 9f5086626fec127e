#include "pool/page/simulated_page.h"

#include <algorithm>
#include <cmath>

#include "pool/page/svg_chart.h"
#include "pool/policy/time.h"

namespace mc::pool {

namespace {

// The charts draw at most this many samples across the simulated span.
constexpr double kSamplesShown = 1440;

std::string RunTime(double t_s) { return "+" + FormatDuration(Seconds(std::max(0.0, t_s))); }

}  // namespace

PoolPageInput SimulatedPageInput(const SimResult& result, const std::vector<SimWorkerSpec>& workers,
                                 const std::string& description, Duration target_wait) {
  PoolPageInput input;
  input.title = "Pool manager, simulated";
  input.note = description + ": " + std::to_string(result.jobs) + " jobs, " +
               std::to_string(result.completed) + " completed, p95 wait " +
               FormatFixed(result.wait_p95_s, 1) + " s, " + FormatFixed(result.worker_hours, 2) +
               " worker-hours, " + std::to_string(result.interrupted) + " interrupted";
  input.refresh_s = 0;
  input.links = false;
  input.end_label = "end";
  input.now_s = result.simulated_s;
  input.span_s = std::max(1.0, result.simulated_s);

  PoolReport& report = input.report;
  report.generated_at = "the end of the run, " + RunTime(result.simulated_s);
  report.queue_read_ok = true;
  report.wait_target_s = target_wait.count();
  if (!result.pressure.empty()) {
    const PressurePoint& last = result.pressure.back();
    report.pressure = last.pressure;
    report.oldest_pending_age_s = last.oldest_wait_s;
    if (last.pending > 0) report.pending_by_type["every type"] = last.pending;
  }
  for (const SimWorkerEnd& end : result.workers_at_end) {
    WorkerRow row;
    row.name = end.name;
    row.manager_state = end.manager_state;
    row.admission_state = end.admission_state;
    row.active_jobs = end.active_jobs;
    row.concurrency = end.concurrency;
    row.evidence_ok = end.evidence_ok;
    row.evidence =
        std::to_string(end.completed) + " completed, " + std::to_string(end.failed) + " failed";
    row.gpu_model = "simulated";
    const auto spec = std::find_if(workers.begin(), workers.end(),
                                   [&](const SimWorkerSpec& s) { return s.name == end.name; });
    if (spec != workers.end()) {
      row.vendor = spec->vendor;
      row.sessions_cap = spec->sessions_cap;
      row.gpu_model = "simulated, " + FormatFixed(spec->speed, 1) + "x real time";
    }
    if (end.admission_state == "AVAILABLE") report.capacity_slots += end.concurrency;
    report.workers.push_back(std::move(row));
  }
  // The last decisions, newest first, as the service lists them.
  for (auto it = result.actions.rbegin(); it != result.actions.rend(); ++it) {
    if (report.decisions.size() >= 40) break;
    std::string words = std::string(ActionKindName(it->action.kind)) + " " + it->action.worker;
    if (it->action.kind == ActionKind::kEnable)
      words += " at concurrency " + std::to_string(it->action.concurrency);
    report.decisions.push_back(
        {.at = RunTime(it->t_s),
         .worker = it->action.worker,
         .action = words,
         .reason = it->reason.empty() ? it->before + " to " + it->after : it->reason});
  }
  report.counters.promotions = result.promotions;
  report.counters.demotions = result.demotions;
  report.counters.cycles = static_cast<long>(result.pressure.size());

  // The same bounded history the service keeps, over the simulated span.
  PoolHistory history(Seconds(input.span_s), Seconds(std::max(1.0, input.span_s / kSamplesShown)));
  for (const PressurePoint& point : result.pressure) {
    HistorySample sample;
    sample.t_s = point.t_s;
    sample.pressure = point.class_pressure;
    sample.active_workers = point.workers_on;
    sample.pending = point.pending;
    sample.oldest_wait_s = point.oldest_wait_s;
    history.Add(sample);
  }
  input.history = history.samples();
  return input;
}

}  // namespace mc::pool
