#include "pool/service/pool_report.h"

#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/text.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;

// The counters, once: their JSON names, their metric names and their help.
struct CounterRow {
  const char* name;
  const char* help;
  long PoolCounters::*field;
};
constexpr CounterRow kCounters[] = {
    {"cycles", "Cycles the pool manager has run.", &PoolCounters::cycles},
    {"promotions", "Workers promoted to ACTIVE.", &PoolCounters::promotions},
    {"demotions", "Workers demoted to SPARE after the queue emptied.", &PoolCounters::demotions},
    {"drains", "Drains asked of workers, for a demotion or a fault.", &PoolCounters::drains},
    {"actions_failed", "Actions whose control channel failed; each is retried.",
     &PoolCounters::actions_failed},
    {"held_for_lost_signals", "Cycles in which the policy held decisions for a lost signal.",
     &PoolCounters::held_for_lost_signals},
    {"queue_read_failures", "Reads of PeerTube's job list that failed.",
     &PoolCounters::queue_read_failures},
    {"queue_reads", "Reads of PeerTube's job list that succeeded.", &PoolCounters::queue_reads},
    {"peertube_requests", "Requests sent to PeerTube's API, logins and video reads included.",
     &PoolCounters::peertube_requests},
};

constexpr const char* kManagerStates[] = {"COLD",   "SPARE",    "WARM",
                                          "ACTIVE", "DRAINING", "COOLDOWN"};

Json OptionalFlag(const std::optional<bool>& flag) { return flag ? Json(*flag) : Json(nullptr); }

std::optional<bool> ReadFlag(const Json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::nullopt;
  return it->get<bool>();
}

// A member a manager from before the page did not write reads as its default.
template <typename T>
T Or(const Json& object, const char* name, T fallback) {
  const auto it = object.find(name);
  return it == object.end() || it->is_null() ? fallback : it->get<T>();
}

std::string Number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// IsRefusal says whether an admission state is the worker's own refusal of any work, for a person
// to act on.
bool IsRefusal(const std::string& admission_state) {
  return admission_state == "OFFLINE" || admission_state == "GPU_UNAVAILABLE" ||
         admission_state == "THERMAL_THROTTLED" || admission_state == "UNREADABLE";
}

}  // namespace

std::string FormatUtc(pool::TimePoint when) {
  const std::time_t seconds = static_cast<std::time_t>(std::floor(when.time_since_epoch().count()));
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string ReportToJson(const PoolReport& report) {
  Json json;
  json["generated_at"] = report.generated_at;
  json["pressure"] = report.pressure;
  json["capacity_slots"] = report.capacity_slots;
  json["demand"] = report.demand;
  Json not_served = Json::object();
  for (const auto& [type, row] : report.not_served)
    not_served[type] = {{"count", row.count}, {"oldest_age_s", row.oldest_age_s}};
  json["queue"] = {{"read_ok", report.queue_read_ok},
                   {"data_age_s", report.queue_data_age_s},
                   {"pending_by_type", report.pending_by_type},
                   {"oldest_pending_age_s", report.oldest_pending_age_s},
                   {"not_served_by_type", not_served}};
  json["queue"]["by_class"] = Json::array();
  for (const QueueRow& row : report.queue_by_class) {
    json["queue"]["by_class"].push_back({{"class", row.job_class},
                                         {"type", row.type},
                                         {"count", row.count},
                                         {"oldest_age_s", row.oldest_age_s}});
  }
  json["pressure_by_class"] = report.pressure_by_class;
  json["wait_target_s"] = report.wait_target_s;
  json["workers"] = Json::array();
  for (const WorkerRow& row : report.workers) {
    json["workers"].push_back(
        {{"name", row.name},
         {"manager_state", row.manager_state},
         {"admission_state", row.admission_state},
         {"active_jobs", row.active_jobs},
         {"concurrency", row.concurrency},
         {"weights", row.weights},
         {"classes", row.classes},
         {"last_reason", row.last_reason},
         {"gpu",
          {{"vendor", row.vendor},
           {"model", row.gpu_model},
           {"sessions_active", row.sessions_active},
           {"sessions_cap", row.sessions_cap}}},
         {"last_evidence", {{"ok", OptionalFlag(row.evidence_ok)}, {"words", row.evidence}}},
         {"self_test",
          {{"ok", OptionalFlag(row.self_test_ok)},
           {"at", row.self_test_at},
           {"detail", row.self_test_detail}}}});
    // The action the worker did not hear, while the manager tries it again.
    json["workers"].back()["failed_action"] = row.failed ? Json{{"action", row.failed->action},
                                                                {"error", row.failed->error},
                                                                {"attempts", row.failed->attempts}}
                                                         : Json(nullptr);
  }
  json["decisions"] = Json::array();
  for (const DecisionRow& row : report.decisions) {
    json["decisions"].push_back(
        {{"at", row.at}, {"worker", row.worker}, {"action", row.action}, {"reason", row.reason}});
  }
  json["unservable"] = report.unservable;
  Json counters = Json::object();
  for (const CounterRow& counter : kCounters)
    counters[counter.name] = report.counters.*counter.field;
  json["counters"] = counters;
  return JsonText(json, 2) + "\n";
}

Result<PoolReport> ReportFromJson(const std::string& text) {
  const Json json = ParseJsonOrDiscarded(text);
  if (json.is_discarded() || !json.is_object())
    return InvalidInput("pool status: not a JSON object");
  // The report comes from this program's own server.
  // A wrong shape means a different program on that port.
  // The JSON library's checked accessors turn that into one clear error.
  try {
    PoolReport report;
    report.generated_at = json.at("generated_at").get<std::string>();
    report.pressure = json.at("pressure").get<double>();
    report.capacity_slots = json.at("capacity_slots").get<int>();
    report.demand = json.at("demand").get<int>();
    const Json& queue = json.at("queue");
    report.queue_read_ok = queue.at("read_ok").get<bool>();
    report.queue_data_age_s = queue.at("data_age_s").get<double>();
    report.pending_by_type = queue.at("pending_by_type").get<std::map<std::string, int>>();
    report.oldest_pending_age_s = queue.at("oldest_pending_age_s").get<double>();
    // A manager from before the jobs it does not serve were shown has none to show.
    if (const auto not_served = queue.find("not_served_by_type"); not_served != queue.end()) {
      for (const auto& [type, row] : not_served->items()) {
        report.not_served[type] = {.count = row.at("count").get<int>(),
                                   .oldest_age_s = row.at("oldest_age_s").get<double>()};
      }
    }
    // The page's members: a manager from before the page wrote none of them.
    if (const auto by_class = queue.find("by_class"); by_class != queue.end()) {
      for (const Json& row : *by_class) {
        report.queue_by_class.push_back({.job_class = row.at("class").get<std::string>(),
                                         .type = row.at("type").get<std::string>(),
                                         .count = row.at("count").get<int>(),
                                         .oldest_age_s = row.at("oldest_age_s").get<double>()});
      }
    }
    report.pressure_by_class = Or(json, "pressure_by_class", std::map<std::string, double>{});
    report.wait_target_s = Or(json, "wait_target_s", 0.0);
    for (const Json& worker : json.at("workers")) {
      WorkerRow row;
      row.name = worker.at("name").get<std::string>();
      row.manager_state = worker.at("manager_state").get<std::string>();
      row.admission_state = worker.at("admission_state").get<std::string>();
      row.active_jobs = worker.at("active_jobs").get<int>();
      row.concurrency = worker.at("concurrency").get<int>();
      row.weights = worker.at("weights").get<std::map<std::string, double>>();
      row.classes = worker.at("classes").get<std::string>();
      row.last_reason = worker.at("last_reason").get<std::string>();
      if (const auto gpu = worker.find("gpu"); gpu != worker.end()) {
        row.vendor = Or(*gpu, "vendor", std::string());
        row.gpu_model = Or(*gpu, "model", std::string());
        row.sessions_active = Or(*gpu, "sessions_active", 0);
        row.sessions_cap = Or(*gpu, "sessions_cap", 0);
      }
      if (const auto evidence = worker.find("last_evidence"); evidence != worker.end()) {
        row.evidence_ok = ReadFlag(*evidence, "ok");
        row.evidence = Or(*evidence, "words", std::string());
      }
      if (const auto self_test = worker.find("self_test"); self_test != worker.end()) {
        row.self_test_ok = ReadFlag(*self_test, "ok");
        row.self_test_at = Or(*self_test, "at", std::string());
        row.self_test_detail = Or(*self_test, "detail", std::string());
      }
      // A manager from before failed actions were shown sends none.
      if (const auto failed = worker.find("failed_action");
          failed != worker.end() && !failed->is_null()) {
        row.failed = FailedAction{.action = failed->at("action").get<std::string>(),
                                  .error = failed->at("error").get<std::string>(),
                                  .attempts = failed->at("attempts").get<int>()};
      }
      report.workers.push_back(std::move(row));
    }
    if (const auto decisions = json.find("decisions"); decisions != json.end()) {
      for (const Json& row : *decisions) {
        report.decisions.push_back({.at = row.at("at").get<std::string>(),
                                    .worker = row.at("worker").get<std::string>(),
                                    .action = row.at("action").get<std::string>(),
                                    .reason = row.at("reason").get<std::string>()});
      }
    }
    report.unservable = json.at("unservable").get<std::vector<std::string>>();
    for (const CounterRow& counter : kCounters) {
      report.counters.*counter.field = json.at("counters").at(counter.name).get<long>();
    }
    return report;
  } catch (const Json::exception& error) {
    return InvalidInput(std::string("pool status: not the pool manager's report: ") + error.what());
  }
}

std::string ReportToPrometheus(const PoolReport& report) {
  std::ostringstream out;
  auto gauge = [&](const char* name, const char* help) {
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " gauge\n";
  };
  gauge("pt_pool_pressure", "The pressure index P of the last cycle, 0 to 1.");
  out << "pt_pool_pressure " << Number(report.pressure) << "\n";
  gauge("pt_pool_capacity_slots", "Job slots of the admitted workers.");
  out << "pt_pool_capacity_slots " << report.capacity_slots << "\n";
  gauge("pt_pool_queue_read_ok", "1 when the last read of PeerTube's job list succeeded.");
  out << "pt_pool_queue_read_ok " << (report.queue_read_ok ? 1 : 0) << "\n";
  gauge("pt_pool_queue_data_age_seconds",
        "Age of the job list the last cycle used: time since the last successful read.");
  out << "pt_pool_queue_data_age_seconds " << Number(report.queue_data_age_s) << "\n";
  gauge("pt_pool_pending_jobs", "Pending runner jobs in PeerTube, per job type.");
  for (const auto& [type, count] : report.pending_by_type) {
    out << "pt_pool_pending_jobs{type=\"" << PrometheusLabelValue(type) << "\"} " << count << "\n";
  }
  gauge("pt_pool_oldest_pending_seconds", "Age of the oldest pending runner job.");
  out << "pt_pool_oldest_pending_seconds " << Number(report.oldest_pending_age_s) << "\n";
  gauge("pt_pool_not_served_jobs", "Pending runner jobs of types this pool does not serve.");
  for (const auto& [type, row] : report.not_served)
    out << "pt_pool_not_served_jobs{type=\"" << PrometheusLabelValue(type) << "\"} " << row.count
        << "\n";
  gauge("pt_pool_not_served_oldest_seconds",
        "Age of the oldest pending job of each type this pool does not serve.");
  for (const auto& [type, row] : report.not_served) {
    out << "pt_pool_not_served_oldest_seconds{type=\"" << PrometheusLabelValue(type) << "\"} "
        << Number(row.oldest_age_s) << "\n";
  }
  gauge("pt_pool_workers", "Workers in each of the manager's states.");
  for (const char* state : kManagerStates) {
    long count = 0;
    for (const WorkerRow& row : report.workers) count += row.manager_state == state;
    out << "pt_pool_workers{state=\"" << state << "\"} " << count << "\n";
  }
  gauge("pt_pool_worker_weight", "Each worker's learned weight per job class.");
  for (const WorkerRow& row : report.workers) {
    for (const auto& [job_class, weight] : row.weights) {
      out << "pt_pool_worker_weight{worker=\"" << PrometheusLabelValue(row.name) << "\",class=\""
          << job_class << "\"} " << Number(weight) << "\n";
    }
  }
  gauge("pt_pool_unservable_classes", "Job classes no worker of the pool can be given.");
  out << "pt_pool_unservable_classes " << report.unservable.size() << "\n";
  for (const CounterRow& counter : kCounters) {
    const std::string name = std::string("pt_pool_") + counter.name + "_total";
    out << "# HELP " << name << " " << counter.help << "\n# TYPE " << name << " counter\n"
        << name << " " << report.counters.*counter.field << "\n";
  }
  return out.str();
}

std::string ReportTable(const PoolReport& report) {
  std::ostringstream out;
  out << "pressure " << Number(std::round(report.pressure * 100) / 100) << ", pending";
  if (report.pending_by_type.empty()) out << " 0";
  for (const auto& [type, count] : report.pending_by_type) out << " " << type << "=" << count;
  out << ", oldest " << Number(std::round(report.oldest_pending_age_s)) << " s"
      << (report.queue_read_ok ? "" : " (the last read of the queue failed)") << "\n";
  if (!report.not_served.empty()) {
    out << "not served by this pool:";
    for (const auto& [type, row] : report.not_served) {
      out << " " << type << "=" << row.count << " (oldest " << Number(std::round(row.oldest_age_s))
          << " s)";
    }
    out << "\n";
  }
  std::size_t width = 6;
  for (const WorkerRow& row : report.workers) width = std::max(width, row.name.size());
  auto pad = [](const std::string& text, std::size_t size) {
    return text + std::string(text.size() < size ? size - text.size() : 1, ' ');
  };
  out << pad("WORKER", width + 2) << pad("MANAGER", 10) << pad("ADMISSION", 19) << pad("JOBS", 6)
      << pad("WEIGHT", 8) << pad("CLASSES", 12) << "LAST REASON\n";
  for (const WorkerRow& row : report.workers) {
    double weight = 0;
    for (const auto& [job_class, value] : row.weights) weight = std::max(weight, value);
    // A reason for an action the worker never heard reads as done: the failure stands instead.
    const std::string reason = row.failed ? "NOT APPLIED: " + row.failed->action + " failed " +
                                                std::to_string(row.failed->attempts) + " time(s)"
                                          : row.last_reason;
    out << pad(row.name, width + 2) << pad(row.manager_state, 10) << pad(row.admission_state, 19)
        << pad(std::to_string(row.active_jobs) + "/" + std::to_string(row.concurrency), 6)
        << pad(Number(std::round(weight * 100) / 100), 8) << pad(row.classes, 12) << reason << "\n";
    if (row.failed) {
      out << "  last action failed: " << row.failed->action << " (attempt " << row.failed->attempts
          << "): " << row.failed->error
          << "; the manager tries it again each cycle. A refused connection is a worker down or "
             "without --control-listen, 401 a wrong control token (docs/troubleshooting.md)\n";
    }
    if (IsRefusal(row.admission_state)) {
      out << "  " << row.name << " refuses work (" << row.admission_state
          << "): what to do is in docs/troubleshooting.md, by its state; `media-capabilities "
             "doctor` on its box says more\n";
    }
  }
  for (const std::string& line : report.unservable) out << "unservable: " << line << "\n";
  return out.str();
}

}  // namespace mc::pool
