#include "pool/trace/trace.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <unordered_set>

#include "common/base/json_text.h"
#include "pool/policy/config_yaml.h"
#include "pool/trace/json_values.h"

namespace mc::pool {

namespace {

constexpr long long kMaxHeight = 8640;
constexpr const char* kKeys[] = {
    "id",  "at",       "type",   "priority",   "resolution", "source_resolution",
    "fps", "duration", "parent", "av1_source", "av1_output", "horizon",
    "runs"};
constexpr const char* kRunKeys[] = {"worker", "run", "again"};
constexpr const char* kEventKeys[] = {"event", "at", "worker", "set", "held", "for"};

struct EventName {
  const char* name;
  TraceEventKind kind;
};
constexpr EventName kEventNames[] = {{"config", TraceEventKind::kConfig},
                                     {"sessions", TraceEventKind::kSessions},
                                     {"evidence-fails", TraceEventKind::kEvidenceFails},
                                     {"probe-fails", TraceEventKind::kProbeFails}};
constexpr double kLongestRun = 7 * 86400;

Error LineError(const std::string& file, std::size_t line, const std::string& what) {
  return InvalidInput(file + ": line " + std::to_string(line) + ": " + what);
}

// The first member of `object` that `keys` does not name; empty when there is none.
template <std::size_t N>
std::string UnknownJsonKey(const nlohmann::json& object, const char* const (&keys)[N]) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(std::begin(keys), std::end(keys), std::string_view(key)) == std::end(keys)) {
      return key;
    }
  }
  return "";
}

// ReadRun fills `run` from one element of a job's runs, or says what is wrong with it, from
// the member on (".run: ...").
std::string ReadRun(const nlohmann::json& object, TraceRun& run) {
  if (!object.is_object()) return ": expected an object {worker, run, again}";
  if (std::string key = UnknownJsonKey(object, kRunKeys); !key.empty()) {
    return "." + key + ": unknown key";
  }
  if (!ReadJsonString(Member(object, "worker"), run.worker) || run.worker.empty()) {
    return ".worker: expected a worker's name";
  }
  if (!ReadJsonNumber(Member(object, "run"), run.run_s) || run.run_s <= 0 ||
      run.run_s > kLongestRun) {
    return ".run: expected a number of seconds between 0 and 604800";
  }
  if (const auto* again = Member(object, "again");
      again && (!ReadJsonNumber(again, run.again_s) || run.again_s < 0)) {
    return ".again: expected a number of seconds of at least 0";
  }
  return "";
}

// ReadJob fills `job` from one line's object, or says what is wrong with it.
std::string ReadJob(const nlohmann::json& object, TraceJob& job) {
  if (std::string key = UnknownJsonKey(object, kKeys); !key.empty()) return key + ": unknown key";
  if (!ReadJsonString(Member(object, "id"), job.id) || job.id.empty()) {
    return "id: expected a non-empty string";
  }
  if (!ReadJsonNumber(Member(object, "at"), job.at_s) || job.at_s < 0) {
    return "at: expected a number of seconds of at least 0";
  }
  if (const auto* type = Member(object, "type"); type && !ReadJsonString(type, job.type)) {
    return "type: expected a string";
  }
  long long number = 0;
  const auto integer = [&](const char* key, long long low, long long high, int& out) {
    const nlohmann::json* value = Member(object, key);
    if (!value) return true;
    if (!ReadJsonInteger(value, low, high, number)) return false;
    out = static_cast<int>(number);
    return true;
  };
  if (!integer("priority", 0, kMaxPriority, job.priority)) {
    return "priority: expected an integer between 0 and " + std::to_string(kMaxPriority);
  }
  if (!integer("resolution", 1, kMaxHeight, job.shape.resolution)) {
    return "resolution: expected an integer between 1 and 8640";
  }
  if (!integer("source_resolution", 0, kMaxHeight, job.shape.source_resolution)) {
    return "source_resolution: expected an integer between 0 and 8640";
  }
  if (!integer("fps", 1, 1000, job.shape.fps)) return "fps: expected an integer between 1 and 1000";
  if (const auto* duration = Member(object, "duration")) {
    double seconds = 0;
    if (!ReadJsonNumber(duration, seconds) || seconds <= 0 || seconds > kLongestRun) {
      return "duration: expected a number of seconds between 0 and 604800";
    }
    job.shape.duration = Seconds(seconds);
  }
  if (const auto* parent = Member(object, "parent"); parent && !parent->is_null()) {
    if (!ReadJsonString(parent, job.parent)) return "parent: expected a job id or null";
  }
  if (const auto* runs = Member(object, "runs")) {
    if (!runs->is_array()) return "runs: expected an array of runs";
    for (std::size_t k = 0; k < runs->size(); ++k) {
      if (std::string what = ReadRun((*runs)[k], job.runs.emplace_back()); !what.empty()) {
        return "runs[" + std::to_string(k) + "]" + what;
      }
    }
  }
  for (const auto& [key, flag] : {std::pair{"av1_source", &job.shape.av1_source},
                                  std::pair{"av1_output", &job.shape.av1_output}}) {
    const nlohmann::json* value = Member(object, key);
    if (value && !ReadJsonBool(value, *flag)) return std::string(key) + ": expected true or false";
  }
  return "";
}

// ReadEvent fills `event` from one line's object, or says what is wrong with it.
std::string ReadEvent(const nlohmann::json& object, TraceEvent& event) {
  if (std::string key = UnknownJsonKey(object, kEventKeys); !key.empty()) {
    return key + ": unknown key of an event";
  }
  std::string name;
  bool known = false;
  if (ReadJsonString(Member(object, "event"), name)) {
    for (const EventName& entry : kEventNames) {
      if (name == entry.name) {
        event.kind = entry.kind;
        known = true;
      }
    }
  }
  if (!known) return "event: expected config, sessions, evidence-fails or probe-fails";
  if (!ReadJsonNumber(Member(object, "at"), event.at_s) || event.at_s < 0) {
    return "at: expected a number of seconds of at least 0";
  }
  const bool on_worker = event.kind != TraceEventKind::kConfig;
  if (on_worker != (Member(object, "worker") != nullptr)) {
    return on_worker ? "worker: expected the name of a worker" : "worker: a config event has none";
  }
  if (on_worker &&
      (!ReadJsonString(Member(object, "worker"), event.worker) || event.worker.empty())) {
    return "worker: expected the name of a worker";
  }
  const nlohmann::json* set = Member(object, "set");
  if ((event.kind == TraceEventKind::kConfig) != (set != nullptr)) {
    return set ? "set: only a config event has one" : "set: expected the keys that change";
  }
  if (set) {
    if (!set->is_object()) return "set: expected an object of configuration keys";
    event.config = set->dump();
    // The keys must read as a configuration; they are applied over the one in effect.
    if (Result<PoolConfig> config = ParsePoolConfig(event.config, "set"); !config) {
      return config.error_message();
    }
  }
  const nlohmann::json* held = Member(object, "held");
  if ((event.kind == TraceEventKind::kSessions) != (held != nullptr)) {
    return held ? "held: only a sessions event has one" : "held: expected a number of sessions";
  }
  long long sessions = 0;
  if (held) {
    if (!ReadJsonInteger(held, 1, 1000, sessions)) return "held: expected an integer 1 to 1000";
    event.sessions = static_cast<int>(sessions);
  }
  if (const nlohmann::json* lasts = Member(object, "for")) {
    if (event.kind != TraceEventKind::kSessions && event.kind != TraceEventKind::kProbeFails) {
      return "for: only a sessions or probe-fails event lasts";
    }
    if (!ReadJsonNumber(lasts, event.for_s) || event.for_s < 0 || event.for_s > kLongestRun) {
      return "for: expected a number of seconds between 0 and 604800";
    }
  }
  return "";
}

const char* EventKindName(TraceEventKind kind) {
  for (const auto& entry : kEventNames) {
    if (entry.kind == kind) return entry.name;
  }
  return "?";
}

}  // namespace

Result<Trace> ParseTrace(std::string_view text, const std::string& file) {
  Trace trace;
  std::unordered_set<std::string> ids;
  std::size_t line_number = 0;
  for (std::string_view line; NextJsonLine(text, line, line_number);) {
    const nlohmann::json object = ParseJson(line);
    if (object.is_discarded() || !object.is_object()) {
      return LineError(file, line_number, "expected one JSON object");
    }
    if (const auto* horizon = Member(object, "horizon")) {
      if (object.size() != 1 || !ReadJsonNumber(horizon, trace.horizon_s) || trace.horizon_s < 0) {
        return LineError(file, line_number, "horizon: expected a line {\"horizon\": seconds}");
      }
      continue;
    }
    if (Member(object, "event")) {
      TraceEvent event;
      if (std::string what = ReadEvent(object, event); !what.empty()) {
        return LineError(file, line_number, what);
      }
      event.line = line_number;
      trace.events.push_back(std::move(event));
      continue;
    }
    TraceJob job;
    if (std::string what = ReadJob(object, job); !what.empty()) {
      return LineError(file, line_number, what);
    }
    if (!job.parent.empty() && !ids.count(job.parent)) {
      return LineError(file, line_number, "parent: " + job.parent + " is not an earlier job");
    }
    if (!ids.insert(job.id).second) {
      return LineError(file, line_number, "id: " + job.id + " appears twice");
    }
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

std::string TraceToJsonl(const Trace& trace) {
  std::string out;
  for (const TraceJob& job : trace.jobs) {
    nlohmann::ordered_json line;
    line["id"] = job.id;
    line["at"] = job.at_s;
    line["type"] = job.type;
    line["priority"] = job.priority;
    line["resolution"] = job.shape.resolution;
    if (job.shape.source_resolution) line["source_resolution"] = job.shape.source_resolution;
    line["fps"] = job.shape.fps;
    line["duration"] = job.shape.duration.count();
    line["parent"] =
        job.parent.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(job.parent);
    if (job.shape.av1_source) line["av1_source"] = true;
    if (job.shape.av1_output) line["av1_output"] = true;
    for (const TraceRun& run : job.runs) {
      nlohmann::ordered_json element;
      element["worker"] = run.worker;
      element["run"] = run.run_s;
      if (run.again_s > 0) element["again"] = run.again_s;
      line["runs"].push_back(std::move(element));
    }
    out += JsonText(line) + "\n";
  }
  for (const TraceEvent& event : trace.events) {
    nlohmann::ordered_json line;
    line["event"] = EventKindName(event.kind);
    line["at"] = event.at_s;
    if (!event.worker.empty()) line["worker"] = event.worker;
    if (event.kind == TraceEventKind::kConfig) line["set"] = nlohmann::json::parse(event.config);
    if (event.kind == TraceEventKind::kSessions) line["held"] = event.sessions;
    if (event.for_s > 0) line["for"] = event.for_s;
    out += JsonText(line) + "\n";
  }
  if (trace.horizon_s > 0) {
    nlohmann::ordered_json line;
    line["horizon"] = trace.horizon_s;
    out += JsonText(line) + "\n";
  }
  return out;
}

}  // namespace mc::pool
