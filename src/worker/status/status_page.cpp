#include "worker/status/status_page.h"

#include <cmath>
#include <cstdio>

#include "common/base/html_text.h"

namespace mc::worker {

namespace {

using Json = nlohmann::ordered_json;

const Json& Null() {
  static const Json null;
  return null;
}

// The member `name` of `object`, or null: the page draws what is there.
const Json& At(const Json& object, const char* name) {
  if (!object.is_object()) return Null();
  const auto it = object.find(name);
  return it == object.end() ? Null() : *it;
}

// Any scalar as escaped text; null as `none`.
std::string Text(const Json& value, const char* none = "") {
  if (value.is_string()) return HtmlEscape(value.get<std::string>());
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number()) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value.get<double>());
    return text;
  }
  return none;
}

std::string Verdict(const Json& ok, const char* yes, const char* no) {
  if (!ok.is_boolean()) return "<span class=\"mute\">none yet</span>";
  return ok.get<bool>() ? std::string("<span class=\"ok\">") + yes + "</span>"
                        : std::string("<span class=\"bad\">") + no + "</span>";
}

std::string StateClass(const std::string& state) {
  if (state == "AVAILABLE" || state == "BUSY") return "ok";
  if (state == "DRAINING" || state == "NETWORK_DEGRADED") return "warn";
  if (state == "DRAINED") return "mute";
  return "bad";
}

std::string Row(const char* name, const std::string& value) {
  return "<tr><th>" + std::string(name) + "</th><td>" + value + "</td></tr>\n";
}

std::string Header(const Json& doc) {
  const std::string state = At(doc, "state").is_string() ? At(doc, "state").get<std::string>() : "";
  std::string out = "<h1>Worker " + Text(At(doc, "runner_name"), "(unnamed)") + "</h1>\n";
  out += "<p class=\"mute\">on " + Text(At(doc, "hostname")) + " &middot; as of " +
         Text(At(doc, "generated_at")) + " &middot; " + Text(At(doc, "registration_state")) +
         "</p>\n";
  out += "<p id=\"state\" data-state=\"" + HtmlEscape(state) + "\"><b class=\"" +
         StateClass(state) + "\">" + HtmlEscape(state) + "</b>: <span id=\"state-reason\">" +
         Text(At(doc, "state_reason")) + "</span></p>\n";
  out += "<p>" + Text(At(doc, "active_jobs"), "0") + " jobs running of " +
         Text(At(doc, "concurrency"), "0") + " at once, bound by " +
         Text(At(doc, "concurrency_bound_by"), "nothing") + ".</p>\n";
  return out;
}

std::string Gpu(const Json& doc) {
  const Json& gpu = At(doc, "gpu");
  const Json& probe = At(doc, "probe");
  std::string out = "<h2>GPU</h2>\n<div class=\"scroll\"><table id=\"gpu\">\n";
  out += Row("Model", Text(At(gpu, "vendor")) + " " + Text(At(gpu, "model")) + " " +
                          Text(At(gpu, "generation")));
  out += Row("Driver", Text(At(gpu, "driver")) + " <span class=\"mute\">" +
                           Text(At(gpu, "kernel_module")) + "</span>");
  out += Row("Device", Text(At(probe, "device"), "none") + " <span class=\"mute\">" +
                           Text(At(probe, "pci_address")) + "</span>");
  out += Row("Probe", Verdict(At(probe, "ok"), "ok", "refused") + " " + Text(At(probe, "reason")) +
                          " <span class=\"mute\">" + Text(At(probe, "evidence")) + "</span>");
  std::string can, cannot;
  const Json& capabilities = At(gpu, "capabilities");
  if (capabilities.is_object()) {
    for (auto it = capabilities.begin(); it != capabilities.end(); ++it) {
      const bool stated = it.value().is_boolean() && it.value().get<bool>();
      std::string& list = stated ? can : cannot;
      list += (list.empty() ? "" : ", ") + HtmlEscape(it.key());
    }
  }
  out += Row("States it can", can.empty() ? "<span class=\"mute\">nothing</span>" : can);
  if (!cannot.empty()) out += Row("States it cannot", "<span class=\"mute\">" + cannot + "</span>");
  out += Row("Largest picture",
             Text(At(gpu, "max_width"), "?") + " &times; " + Text(At(gpu, "max_height"), "?"));
  const Json& sessions = At(gpu, "sessions");
  out += Row("Encode sessions",
             Text(At(sessions, "active"), "0") + " of " + Text(At(sessions, "cap"), "no cap") +
                 " <span class=\"mute\">(" + Text(At(sessions, "cap_source")) + ")</span>");
  const Json& devices = At(gpu, "devices");
  for (const Json& device : devices.is_array() ? devices : Json::array()) {
    std::string words = "VRAM free " + Text(At(device, "vram_free_mb"), "?") + " of " +
                        Text(At(device, "vram_total_mb"), "?") + " MB, encoder " +
                        Text(At(device, "enc_util_pct"), "?") + " %, decoder " +
                        Text(At(device, "dec_util_pct"), "?") + " %, " +
                        Text(At(device, "temp_c"), "?") + " &deg;C";
    const Json& throttle = At(device, "throttle_reasons");
    if (throttle.is_array() && !throttle.empty()) {
      words += ", <span class=\"warn\">throttled:";
      for (const Json& reason : throttle) words += " " + Text(reason);
      words += "</span>";
    }
    out += "<tr><th>Device " + Text(At(device, "index")) + "</th><td>" + words + "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string Jobs(const Json& doc) {
  const Json& counters = At(doc, "jobs");
  std::string out = "<h2>Jobs</h2>\n<p id=\"job-counters\">" +
                    Text(At(counters, "completed"), "0") + " completed, " +
                    Text(At(counters, "failed"), "0") + " failed, " +
                    Text(At(counters, "hw_fallback_prevented"), "0") + " kept off the CPU, " +
                    Text(At(counters, "aborted"), "0") + " aborted.";
  const Json& last = At(doc, "hw_evidence_last_job");
  out += " The last job's evidence: " + Verdict(At(last, "ok"), "on the GPU", "failed") + " " +
         Text(At(last, "method")) + "</p>\n";
  const Json& recent = At(doc, "recent_jobs");
  if (!recent.is_array() || recent.empty())
    return out + "<p class=\"mute\">No job has run yet.</p>\n";
  out +=
      "<div class=\"scroll\"><table id=\"recent-jobs\">\n<tr><th>Accepted</th><th>Job</th>"
      "<th>Outcome</th><th>Evidence</th><th class=\"n\">Seconds</th><th class=\"n\">"
      "&times; real time</th></tr>\n";
  // Newest first, as a person reads a log.
  for (auto it = recent.rbegin(); it != recent.rend(); ++it) {
    const Json& job = *it;
    const Json& evidence = At(job, "evidence");
    const std::string outcome =
        At(job, "outcome").is_string() ? At(job, "outcome").get<std::string>() : "";
    const char* outcome_class =
        outcome == "success" ? "ok" : (outcome == "running" ? "mute" : "bad");
    out += "<tr data-job=\"" + Text(At(job, "uuid")) + "\"><td>" + Text(At(job, "accepted_at")) +
           "</td><td>" + Text(At(job, "type")) + " <span class=\"mute\">" + Text(At(job, "uuid")) +
           "</span></td><td class=\"" + outcome_class + "\">" + HtmlEscape(outcome) + "</td><td>" +
           Verdict(At(evidence, "ok"), "on the GPU", "failed") + " " + Text(At(evidence, "words")) +
           "</td><td class=\"n\">" + Text(At(job, "wall_seconds")) + "</td><td class=\"n\">" +
           Text(At(job, "realtime_factor")) + "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string Canary(const Json& doc) {
  const Json& canary = At(doc, "canary");
  std::string out = "<h2>Canaries</h2>\n<p id=\"canary\">" + Text(At(canary, "passed"), "0") +
                    " passed, " + Text(At(canary, "failed"), "0") + " failed";
  if (At(canary, "running").is_boolean() && At(canary, "running").get<bool>())
    out += "; one runs now";
  if (At(canary, "pending").is_boolean() && At(canary, "pending").get<bool>()) out += "; one waits";
  const Json& last = At(canary, "last");
  if (last.is_object()) {
    out += ". The last, " + Text(At(last, "ts")) + ": " +
           Verdict(At(last, "ok"), "passed", "failed") + " " + Text(At(last, "reason")) +
           " <span class=\"mute\">" + Text(At(last, "evidence")) + "</span>";
  }
  return out + "</p>\n";
}

std::string SelfTest(const Json& doc) {
  const Json& report = At(At(doc, "gpu"), "self_test");
  std::string out = "<h2>Self-test</h2>\n";
  if (!report.is_object()) return out + "<p class=\"mute\" id=\"self-test\">Not run yet.</p>\n";
  out += "<p id=\"self-test\">" + Verdict(At(report, "ok"), "Passed", "Failed") + " " +
         Text(At(report, "ts")) + ". " + Text(At(report, "detail")) + " <span class=\"mute\">" +
         Text(At(report, "evidence")) + "</span></p>\n";
  const Json& steps = At(report, "steps");
  if (!steps.is_array() || steps.empty()) return out;
  out +=
      "<div class=\"scroll\"><table id=\"self-test-steps\">\n<tr><th>Step</th><th>Verdict</th>"
      "<th class=\"n\">Seconds</th><th>Evidence</th></tr>\n";
  for (const Json& step : steps) {
    out += "<tr><td>" + Text(At(step, "name")) + "</td><td>" +
           Verdict(At(step, "ok"), "passed", "failed") + "</td><td class=\"n\">" +
           Text(At(step, "seconds")) + "</td><td>" + Text(At(step, "evidence")) +
           (At(step, "detail").is_string() && !At(step, "detail").get<std::string>().empty()
                ? "<br><span class=\"mute\">" + Text(At(step, "detail")) + "</span>"
                : std::string()) +
           "</td></tr>\n";
  }
  return out + "</table></div>\n";
}

std::string Footer(const Json& doc) {
  std::string out;
  const Json& problems = At(doc, "problems");
  if (problems.is_array() && !problems.empty()) {
    out += "<h2>Could not be read</h2>\n<ul>\n";
    for (const Json& problem : problems) out += "<li>" + Text(problem) + "</li>\n";
    out += "</ul>\n";
  }
  const Json& peertube = At(doc, "peertube");
  if (peertube.is_object()) {
    out += "<p>PeerTube " + Text(At(peertube, "server_version"), "?") + ", runner " +
           Text(At(peertube, "runner_version"), "?") + ": " + Text(At(peertube, "support")) +
           " <span class=\"mute\">" + Text(At(peertube, "advice")) + "</span></p>\n";
  }
  out +=
      "<p class=\"mute\">This page is read-only. The same as <a href=\"status\">JSON</a> and "
      "<a href=\"metrics\">metrics</a>.</p>\n";
  return out;
}

}  // namespace

std::string StatusPageHtml(const nlohmann::ordered_json& document, int refresh_s) {
  std::string title = "Worker";
  if (const Json& name = At(document, "runner_name"); name.is_string())
    title += " " + name.get<std::string>();
  const std::string body = Header(document) + Gpu(document) + Jobs(document) + Canary(document) +
                           SelfTest(document) + Footer(document);
  return HtmlPage({.title = title, .refresh_s = refresh_s}, body);
}

}  // namespace mc::worker
