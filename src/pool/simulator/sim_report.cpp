#include "pool/simulator/sim_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/base/json_text.h"

namespace mc::pool {

namespace {

// One row of the table and one member of the JSON, defined once.
struct Measure {
  const char* name;
  const char* unit;
  double (*value)(const SimResult&);
};

const Measure kMeasures[] = {
    {"jobs", "", [](const SimResult& r) -> double { return r.jobs; }},
    {"completed", "", [](const SimResult& r) -> double { return r.completed; }},
    {"unservable", "", [](const SimResult& r) -> double { return r.unservable; }},
    {"errored", "", [](const SimResult& r) -> double { return r.errored; }},
    {"unfinished", "", [](const SimResult& r) -> double { return r.unfinished; }},
    {"interrupted", "", [](const SimResult& r) -> double { return r.interrupted; }},
    {"retries", "", [](const SimResult& r) -> double { return r.retries; }},
    {"class_gate_waits", "", [](const SimResult& r) -> double { return r.class_gate_waits; }},
    {"makespan", "s", [](const SimResult& r) { return r.makespan_s; }},
    {"wait_p50", "s", [](const SimResult& r) { return r.wait_p50_s; }},
    {"wait_p95", "s", [](const SimResult& r) { return r.wait_p95_s; }},
    {"wait_max", "s", [](const SimResult& r) { return r.wait_max_s; }},
    {"worker_hours", "h", [](const SimResult& r) { return r.worker_hours; }},
    {"busy_hours", "h", [](const SimResult& r) { return r.busy_hours; }},
    {"idle_hours", "h", [](const SimResult& r) { return r.idle_hours; }},
    {"promotions", "", [](const SimResult& r) -> double { return r.promotions; }},
    {"demotions", "", [](const SimResult& r) -> double { return r.demotions; }},
};

std::string Format(double value, const char* unit) {
  char text[48];
  if (*unit == 'h')
    std::snprintf(text, sizeof text, "%.2f h", value);
  else if (*unit == 's')
    std::snprintf(text, sizeof text, "%.1f s", value);
  else
    std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

// XmlText escapes what SVG text may not hold as it is.
std::string XmlText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string ResultTable(const SimResult& result) {
  std::string out = "policy            " + std::string(PolicyKindName(result.policy)) + "\n";
  for (const Measure& measure : kMeasures) {
    char line[96];
    std::snprintf(line, sizeof line, "%-18s%s\n", measure.name,
                  Format(measure.value(result), measure.unit).c_str());
    out += line;
  }
  for (const std::string& id : result.unservable_ids) out += "unservable job    " + id + "\n";
  return out;
}

std::string ResultJson(const SimResult& result) {
  nlohmann::ordered_json out;
  out["policy"] = PolicyKindName(result.policy);
  for (const Measure& measure : kMeasures) {
    const std::string key =
        *measure.unit ? std::string(measure.name) + "_" + measure.unit : std::string(measure.name);
    out[key] = measure.value(result);
  }
  out["unservable_jobs"] = result.unservable_ids;
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const PressurePoint& point : result.pressure) {
    series.push_back({point.t_s, point.pressure, point.workers_on, point.pending});
  }
  out["pressure_series"] = {{"columns", {"t_s", "pressure", "workers_on", "pending"}},
                            {"rows", series}};
  // With the log kept: every action with its reason and the worker's states, every reason,
  // and which worker ran which job.
  if (!result.actions.empty() || !result.reasons.empty() || !result.runs.empty()) {
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < result.actions.size(); ++i) {
      const TimedAction& timed = result.actions[i];
      nlohmann::ordered_json action = {{"id", i + 1},
                                       {"t_s", timed.t_s},
                                       {"kind", ActionKindName(timed.action.kind)},
                                       {"worker", timed.action.worker},
                                       {"reason", ReasonRow(timed.action.reason).id},
                                       {"text", timed.reason},
                                       {"before", timed.before},
                                       {"after", timed.after}};
      if (timed.action.kind == ActionKind::kEnable) {
        action["concurrency"] = timed.action.concurrency;
      }
      actions.push_back(std::move(action));
    }
    out["actions"] = std::move(actions);
    nlohmann::ordered_json reasons = nlohmann::ordered_json::array();
    for (const TimedReason& timed : result.reasons) {
      reasons.push_back({{"t_s", timed.t_s},
                         {"reason", ReasonRow(timed.reason.code).id},
                         {"worker", timed.reason.worker},
                         {"text", timed.reason.text}});
    }
    out["reasons"] = std::move(reasons);
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const JobRunRecord& run : result.runs) {
      runs.push_back({{"job", run.job},
                      {"worker", run.worker},
                      {"start_s", run.start_s},
                      {"end_s", run.end_s},
                      {"outcome", run.outcome}});
    }
    out["runs"] = std::move(runs);
  }
  return JsonText(out, 2) + "\n";
}

std::string CompareTable(const std::vector<NamedResult>& runs) {
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%-10s %9s %9s %9s %9s %9s %6s %6s %6s %9s\n", "policy", "p50 s",
                "p95 s", "max s", "w-hours", "busy h", "intr", "ups", "downs", "completed");
  out += line;
  for (const NamedResult& run : runs) {
    const SimResult& r = run.result;
    std::snprintf(line, sizeof line, "%-10s %9.0f %9.0f %9.0f %9.2f %9.2f %6d %6d %6d %9d\n",
                  run.name.c_str(), r.wait_p50_s, r.wait_p95_s, r.wait_max_s, r.worker_hours,
                  r.busy_hours, r.interrupted, r.promotions, r.demotions, r.completed);
    out += line;
  }
  return out;
}

std::string CompareJson(const std::vector<NamedResult>& runs) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NamedResult& run : runs) {
    nlohmann::ordered_json row;
    row["policy"] = run.name;
    for (const Measure& measure : kMeasures) {
      const std::string key = *measure.unit ? std::string(measure.name) + "_" + measure.unit
                                            : std::string(measure.name);
      row[key] = measure.value(run.result);
    }
    out.push_back(std::move(row));
  }
  return JsonText(out, 2) + "\n";
}

std::string PressurePlot(const SimResult& result, const std::string& title) {
  constexpr double kWidth = 900, kHeight = 300, kLeft = 50, kRight = 50, kTop = 30, kBottom = 40;
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  const double span = std::max(1.0, result.pressure.empty() ? 1.0 : result.pressure.back().t_s);
  int most_on = 1;
  for (const PressurePoint& point : result.pressure) most_on = std::max(most_on, point.workers_on);
  const auto x = [&](double t) { return kLeft + plot_w * t / span; };
  std::string pressure, workers;
  char point_text[64];
  for (const PressurePoint& point : result.pressure) {
    std::snprintf(point_text, sizeof point_text, "%.1f,%.1f ", x(point.t_s),
                  kTop + plot_h * (1 - point.pressure));
    pressure += point_text;
    std::snprintf(point_text, sizeof point_text, "%.1f,%.1f ", x(point.t_s),
                  kTop + plot_h * (1 - static_cast<double>(point.workers_on) / most_on));
    workers += point_text;
  }
  std::string svg;
  char text[512];
  std::snprintf(text, sizeof text,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                "<text x=\"%.0f\" y=\"18\">%s: P over time (blue, left axis 0..1) and workers "
                "on (orange, right axis 0..%d)</text>\n"
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
                "stroke=\"#888\"/>\n",
                kWidth, kHeight, kLeft, XmlText(title).c_str(), most_on, kLeft, kTop, plot_w,
                plot_h);
  svg += text;
  for (double level : {0.15, 0.6, 0.8}) {
    const double y = kTop + plot_h * (1 - level);
    std::snprintf(text, sizeof text,
                  "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\" "
                  "stroke-dasharray=\"4\"/><text x=\"8\" y=\"%.1f\">%.2f</text>\n",
                  kLeft, y, kLeft + plot_w, y, y + 4, level);
    svg += text;
  }
  std::snprintf(text, sizeof text,
                "<text x=\"%.0f\" y=\"%.0f\">0</text><text x=\"%.0f\" y=\"%.0f\" "
                "text-anchor=\"end\">%s</text>\n",
                kLeft, kHeight - 15, kLeft + plot_w, kHeight - 15,
                FormatDuration(Seconds(span)).c_str());
  svg += text;
  svg += "<polyline fill=\"none\" stroke=\"#f28e2b\" stroke-width=\"1.5\" points=\"" + workers +
         "\"/>\n";
  svg += "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" points=\"" + pressure +
         "\"/>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace mc::pool
