#include "pool/page/pool_page.h"

#include <cmath>

#include "common/base/html_text.h"
#include "pool/page/svg_chart.h"
#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

namespace {

std::string Esc(const std::string& text) { return HtmlEscape(text); }

std::string Wait(double seconds) {
  return FormatDuration(Seconds(std::isfinite(seconds) ? std::max(0.0, seconds) : 0));
}

// A verdict as a word with its colour: yes, no, or not yet known.
std::string Verdict(const std::optional<bool>& ok, const char* yes, const char* no) {
  if (!ok) return "<span class=\"mute\">none yet</span>";
  return *ok ? std::string("<span class=\"ok\">") + yes + "</span>"
             : std::string("<span class=\"bad\">") + no + "</span>";
}

std::string StateClass(const std::string& state) {
  if (state == "ACTIVE" || state == "AVAILABLE" || state == "BUSY") return "ok";
  if (state == "GPU_UNAVAILABLE" || state == "UNREADABLE" || state == "COOLDOWN" ||
      state == "THERMAL_THROTTLED" || state == "OFFLINE")
    return "bad";
  if (state == "DRAINING" || state == "NETWORK_DEGRADED") return "warn";
  return "mute";
}

std::string Summary(const PoolPageInput& input) {
  const PoolReport& report = input.report;
  int pending = 0;
  for (const auto& [type, count] : report.pending_by_type) pending += count;
  std::string out = "<p id=\"summary\">Pressure <b>" + FormatFixed(report.pressure, 2) +
                    "</b> &middot; " + std::to_string(pending) + " pending, the oldest waiting " +
                    Wait(report.oldest_pending_age_s) + " &middot; " +
                    std::to_string(report.capacity_slots) + " job slots admitted";
  if (!report.queue_read_ok) {
    out +=
        " &middot; <span class=\"bad\">PeerTube's job list could not be read; the list "
        "shown is " +
        Wait(report.queue_data_age_s) + " old</span>";
  }
  out += "</p>\n";
  return out;
}

std::string WorkersTable(const PoolReport& report) {
  std::string out = "<h2>Workers</h2>\n";
  if (report.workers.empty()) return out + "<p class=\"mute\">No worker is configured.</p>\n";
  out +=
      "<div class=\"scroll\"><table id=\"workers\">\n<tr><th>Worker</th><th>GPU</th>"
      "<th>State</th><th>Reason</th><th class=\"n\">Jobs</th><th class=\"n\">NVENC sessions</th>"
      "<th>Classes</th><th>Last evidence</th><th>Self-test</th></tr>\n";
  for (const WorkerRow& row : report.workers) {
    const std::string gpu = row.vendor.empty() && row.gpu_model.empty()
                                ? std::string("<span class=\"mute\">unknown</span>")
                                : Esc(row.vendor) + " " + Esc(row.gpu_model);
    const std::string sessions =
        row.vendor != "nvidia"
            ? std::string("<span class=\"mute\">&ndash;</span>")
            : std::to_string(row.sessions_active) + " of " +
                  (row.sessions_cap > 0 ? std::to_string(row.sessions_cap) : "no cap");
    out += "<tr data-worker=\"" + Esc(row.name) + "\" data-manager-state=\"" +
           Esc(row.manager_state) + "\" data-admission-state=\"" + Esc(row.admission_state) + "\">";
    out += "<td class=\"name\">" + Esc(row.name) + "</td><td>" + gpu + "</td>";
    out += "<td><span class=\"" + StateClass(row.manager_state) + "\">" + Esc(row.manager_state) +
           "</span> / <span class=\"" + StateClass(row.admission_state) + "\">" +
           Esc(row.admission_state) + "</span></td>";
    out += "<td>" + Esc(row.last_reason) + "</td>";
    out += "<td class=\"n\">" + std::to_string(row.active_jobs) + " of " +
           std::to_string(row.concurrency) + "</td>";
    out += "<td class=\"n\">" + sessions + "</td><td>" + Esc(row.classes) + "</td>";
    out += "<td>" + Verdict(row.evidence_ok, "on the GPU", "failed") +
           (row.evidence.empty() ? "" : " <span class=\"mute\">" + Esc(row.evidence) + "</span>") +
           "</td>";
    out +=
        "<td>" + Verdict(row.self_test_ok, "passed", "failed") +
        (row.self_test_at.empty() ? ""
                                  : " <span class=\"mute\">" + Esc(row.self_test_at) + "</span>");
    if (row.self_test_ok == false && !row.self_test_detail.empty())
      out += "<br>" + Esc(row.self_test_detail);
    out += "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string QueueTables(const PoolReport& report) {
  std::string out = "<h2>Queue</h2>\n";
  if (report.queue_by_class.empty()) {
    out += "<p class=\"mute\" id=\"queue-empty\">No job of this pool's types waits.</p>\n";
  } else {
    out +=
        "<div class=\"scroll\"><table id=\"queue\">\n<tr><th>Class</th><th>Job type</th>"
        "<th class=\"n\">Pending</th><th class=\"n\">Oldest wait</th>"
        "<th class=\"n\">Pressure</th></tr>\n";
    for (const QueueRow& row : report.queue_by_class) {
      const auto pressure = report.pressure_by_class.find(row.job_class);
      out += "<tr data-class=\"" + Esc(row.job_class) + "\" data-type=\"" + Esc(row.type) +
             "\" data-count=\"" + std::to_string(row.count) + "\"><td>" + Esc(row.job_class) +
             "</td><td>" + Esc(row.type) + "</td><td class=\"n\">" + std::to_string(row.count) +
             "</td><td class=\"n\">" + Wait(row.oldest_age_s) + "</td><td class=\"n\">" +
             (pressure == report.pressure_by_class.end() ? "" : FormatFixed(pressure->second, 2)) +
             "</td></tr>\n";
    }
    out += "</table></div>\n";
  }
  if (!report.not_served.empty()) {
    out +=
        "<p>Pending jobs this pool does not serve:</p>\n<div class=\"scroll\">"
        "<table id=\"not-served\">\n<tr><th>Job type</th><th class=\"n\">Pending</th>"
        "<th class=\"n\">Oldest wait</th></tr>\n";
    for (const auto& [type, row] : report.not_served) {
      out += "<tr data-type=\"" + Esc(type) + "\" data-count=\"" + std::to_string(row.count) +
             "\"><td>" + Esc(type) + "</td><td class=\"n\">" + std::to_string(row.count) +
             "</td><td class=\"n\">" + Wait(row.oldest_age_s) + "</td></tr>\n";
    }
    out += "</table></div>\n";
  }
  if (!report.unservable.empty()) {
    out += "<p class=\"bad\">No worker of the pool can be given:</p>\n<ul id=\"unservable\">\n";
    for (const std::string& line : report.unservable) out += "<li>" + Esc(line) + "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

std::string DecisionsTable(const PoolReport& report) {
  std::string out = "<h2>Last decisions</h2>\n";
  if (report.decisions.empty()) return out + "<p class=\"mute\">None yet.</p>\n";
  out +=
      "<div class=\"scroll\"><table id=\"decisions\">\n<tr><th>When</th><th>Worker</th>"
      "<th>Action</th><th>Why</th></tr>\n";
  for (const DecisionRow& row : report.decisions) {
    out +=
        "<tr><td>" + Esc(row.at) + "</td><td>" + Esc(row.worker) + "</td><td>" +
        (row.action.empty() ? std::string("<span class=\"mute\">none</span>") : Esc(row.action)) +
        "</td><td>" + Esc(row.reason) + "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string Charts(const PoolPageInput& input) {
  const double to = input.now_s;
  const double from = to - std::max(1.0, input.span_s);
  auto chart = [&](std::string title, std::string unit) {
    Chart c;
    c.title = std::move(title);
    c.unit = std::move(unit);
    c.from_s = from;
    c.to_s = to;
    c.end_label = input.end_label;
    return c;
  };
  Chart pressure = chart("Pressure per class", "");
  pressure.top = 1;
  for (JobClass job_class : kAllJobClasses) {
    ChartSeries series{std::string(JobClassName(job_class)), {}};
    for (const HistorySample& sample : input.history)
      series.points.emplace_back(sample.t_s, sample.pressure[Index(job_class)]);
    pressure.series.push_back(std::move(series));
  }
  Chart active = chart("ACTIVE workers", "");
  Chart pending = chart("Pending jobs", "");
  Chart waits = chart("Waits against the target", "");
  waits.seconds = true;
  ChartSeries active_line{"ACTIVE", {}}, pending_line{"pending", {}};
  ChartSeries oldest{"oldest pending", {}}, started{"started jobs' longest", {}};
  for (const HistorySample& sample : input.history) {
    active_line.points.emplace_back(sample.t_s, sample.active_workers);
    pending_line.points.emplace_back(sample.t_s, sample.pending);
    oldest.points.emplace_back(sample.t_s, sample.oldest_wait_s);
    if (sample.started_wait_s) started.points.emplace_back(sample.t_s, *sample.started_wait_s);
  }
  active.series.push_back(std::move(active_line));
  pending.series.push_back(std::move(pending_line));
  waits.series.push_back(std::move(oldest));
  waits.series.push_back(std::move(started));
  if (input.report.wait_target_s > 0) waits.target = input.report.wait_target_s;
  std::string out = "<h2>The last " + FormatDuration(Seconds(std::max(1.0, input.span_s))) +
                    "</h2>\n<div class=\"charts\" id=\"charts\">\n";
  for (const Chart* c : {&pressure, &active, &pending, &waits}) out += SvgChart(*c);
  return out + "</div>\n";
}

std::string Counters(const PoolPageInput& input) {
  const PoolCounters& c = input.report.counters;
  std::string out = "<p class=\"mute\" id=\"counters\">" + std::to_string(c.cycles) + " cycles, " +
                    std::to_string(c.promotions) + " promotions, " + std::to_string(c.demotions) +
                    " demotions, " + std::to_string(c.drains) + " drains, " +
                    std::to_string(c.actions_failed) + " actions failed (retried), " +
                    std::to_string(c.queue_read_failures) + " failed reads of the queue.";
  out += " This page is read-only: actions go through the authenticated control API.";
  if (input.links)
    out += " The same as <a href=\"status\">JSON</a> and <a href=\"metrics\">metrics</a>.";
  return out + "</p>\n";
}

}  // namespace

std::string PoolPageHtml(const PoolPageInput& input) {
  std::string body = "<h1>" + Esc(input.title) + "</h1>\n";
  body +=
      "<p class=\"mute\">" + (input.note.empty() ? std::string() : Esc(input.note) + " &middot; ") +
      "as of " + Esc(input.report.generated_at) +
      (input.refresh_s > 0 ? " &middot; refreshes every " + std::to_string(input.refresh_s) + " s"
                           : std::string()) +
      "</p>\n";
  body += Summary(input);
  body += WorkersTable(input.report);
  body += QueueTables(input.report);
  body += Charts(input);
  body += DecisionsTable(input.report);
  body += Counters(input);
  return HtmlPage({.title = input.title, .refresh_s = input.refresh_s}, body);
}

}  // namespace mc::pool
