#include "pool/trace/trace_recorder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_set>

#include "common/base/iso_time.h"
#include "pool/trace/json_values.h"

namespace mc::pool {

namespace {

// What the recorder keeps of one job, merged over the snapshots that mention it.
struct Seen {
  std::string uuid;
  std::string type;
  std::string parent;
  int priority = 100;
  int resolution = 0;
  int fps = 30;
  std::optional<double> created, started, finished;
  std::size_t order = 0;
};

double Millis(double seconds) { return std::max(0.0, std::round(seconds * 1000) / 1000); }

std::optional<double> TimeOf(const nlohmann::json& object, const char* key) {
  std::string text;
  if (!ReadJsonString(Member(object, key), text)) return std::nullopt;
  return ParseIsoTime(text);
}

// Merge folds one job object (an API entry or a snapshot line) into `seen`.
std::string Merge(const nlohmann::json& object, std::map<std::string, Seen>& seen) {
  std::string uuid;
  if (!ReadJsonString(Member(object, "uuid"), uuid) || uuid.empty()) {
    return "uuid: expected a non-empty string";
  }
  Seen& job = seen[uuid];
  if (job.uuid.empty()) {
    job.uuid = uuid;
    job.order = seen.size();
  }
  if (const auto* type = Member(object, "type"); type && !ReadJsonString(type, job.type)) {
    return "type: expected a string";
  }
  long long number = 0;
  if (ReadJsonInteger(Member(object, "priority"), 0, kMaxPriority, number)) {
    job.priority = static_cast<int>(number);
  }
  if (const auto* payload = Member(object, "payload")) {
    if (const auto* output = Member(*payload, "output")) {
      if (ReadJsonInteger(Member(*output, "resolution"), 1, 8640, number)) {
        job.resolution = static_cast<int>(number);
      }
      if (ReadJsonInteger(Member(*output, "fps"), 1, 1000, number))
        job.fps = static_cast<int>(number);
    }
  }
  if (const auto* parent = Member(object, "parent"); parent && !parent->is_null()) {
    // The API gives the parent as an object; a snapshot line as its uuid.
    if (!ReadJsonString(parent, job.parent) &&
        !ReadJsonString(Member(*parent, "uuid"), job.parent)) {
      return "parent: expected a uuid or an object with one";
    }
  }
  if (auto created = TimeOf(object, "createdAt")) job.created = created;
  if (auto started = TimeOf(object, "startedAt")) job.started = started;
  if (auto finished = TimeOf(object, "finishedAt")) job.finished = finished;
  return "";
}

}  // namespace

Result<Trace> RecordTrace(std::string_view text, const RecordOptions& options,
                          const std::string& file) {
  std::map<std::string, Seen> seen;
  const nlohmann::json whole = ParseJson(text);
  if (!whole.is_discarded() && (whole.is_array() || Member(whole, "data"))) {
    const nlohmann::json* data = whole.is_array() ? &whole : Member(whole, "data");
    if (!data->is_array()) return InvalidInput(file + ": data: expected an array of jobs");
    for (std::size_t i = 0; i < data->size(); ++i) {
      if (std::string what = Merge((*data)[i], seen); !what.empty()) {
        return InvalidInput(file + ": data[" + std::to_string(i) + "]." + what);
      }
    }
  } else {
    std::size_t line_number = 0;
    for (std::string_view line; NextJsonLine(text, line, line_number);) {
      const nlohmann::json object = ParseJson(line);
      std::string what = object.is_object() ? Merge(object, seen) : "expected one JSON object";
      if (!what.empty()) {
        return InvalidInput(file + ": line " + std::to_string(line_number) + ": " + what);
      }
    }
  }
  if (seen.empty()) return InvalidInput(file + ": no job in it");

  std::vector<const Seen*> jobs;
  double start = 0;
  bool have_start = false;
  for (const auto& [uuid, job] : seen) {
    jobs.push_back(&job);
    if (job.created && (!have_start || *job.created < start)) {
      start = *job.created;
      have_start = true;
    }
  }
  std::sort(jobs.begin(), jobs.end(), [](const Seen* a, const Seen* b) {
    const double at_a = a->created.value_or(0), at_b = b->created.value_or(0);
    return at_a != at_b ? at_a < at_b : a->order < b->order;
  });
  // Parents first: a job whose parent is not listed is a root (its parent finished before
  // the list was taken).
  Trace trace;
  std::unordered_set<std::string> written;
  std::map<std::string, int> source_of;
  for (bool progress = true; progress && written.size() < jobs.size();) {
    progress = false;
    for (const Seen* job : jobs) {
      if (written.count(job->uuid)) continue;
      const bool parent_listed = !job->parent.empty() && seen.count(job->parent);
      if (parent_listed && !written.count(job->parent)) continue;
      TraceJob out;
      out.id = job->uuid;
      // PeerTube's times are whole milliseconds; rounding keeps the epoch's float noise out.
      out.at_s = job->created && have_start ? Millis(*job->created - start) : 0;
      out.type = job->type.empty() ? "vod-web-video-transcoding" : job->type;
      out.priority = job->priority;
      out.shape.resolution = job->resolution > 0 ? job->resolution : options.resolution;
      out.shape.fps = job->fps;
      out.parent = parent_listed ? job->parent : "";
      // A child's source is its root's output: the max-quality file.
      out.shape.source_resolution = parent_listed ? source_of[job->parent] : out.shape.resolution;
      source_of[job->uuid] = out.shape.source_resolution;
      double duration = options.duration_s;
      if (duration <= 0 && job->started && job->finished && *job->finished > *job->started) {
        duration = Millis(*job->finished - *job->started);
      }
      out.shape.duration = Seconds(duration > 0 ? duration : 60);
      trace.jobs.push_back(std::move(out));
      written.insert(job->uuid);
      progress = true;
    }
  }
  if (written.size() < jobs.size()) return InvalidInput(file + ": the jobs' parents form a loop");
  return trace;
}

}  // namespace mc::pool
