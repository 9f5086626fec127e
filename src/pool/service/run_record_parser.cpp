// The record is outside input to the replay.
// It is a file someone hands over, perhaps cut short or edited.
// So every member is checked for its type and range.
// Every error names the line and the member.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "pool/policy/config_yaml.h"
#include "pool/policy/reasons.h"
#include "pool/service/run_record.h"
#include "pool/service/worker_status_reader.h"
#include "pool/trace/json_values.h"
#include "pool/trace/trace.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;
constexpr double kMaxSeconds = 1e11;  // past the year 5000, as seconds since the epoch
constexpr std::int64_t kMaxHeight = 8640;

std::optional<pool::ActionKind> ParseActionKind(const std::string& name) {
  for (pool::ActionKind kind :
       {pool::ActionKind::kEnable, pool::ActionKind::kDrain, pool::ActionKind::kSetClasses,
        pool::ActionKind::kProbe, pool::ActionKind::kWake, pool::ActionKind::kSuspend}) {
    if (pool::ActionKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::optional<pool::ReasonCode> ParseReasonId(const std::string& id) {
  for (const pool::ReasonTemplate& row : pool::ReasonTable()) {
    if (id == row.id) return row.code;
  }
  return std::nullopt;
}

class LineReader {
 public:
  const std::string& error_message() const { return json_.error_message(); }

  bool Header(const Json& line, RunRecord& record) {
    if (!json_.Object(line, "header")) return false;
    std::string kind;
    std::int64_t version = 0;
    double poll = 0;
    const Json* value = json_.Member(line, "", "record");
    if (!value || !json_.String(*value, "record", kind)) return false;
    if (kind != "pool-run") return json_.Fail("record", "expected \"pool-run\"");
    if (!(value = json_.Member(line, "", "version")) ||
        !json_.Int(*value, "version", 1, 1, version)) {
      return false;
    }
    if (!(value = json_.Member(line, "", "queue_poll")) ||
        !json_.Number(*value, "queue_poll", 0.001, 86400, poll)) {
      return false;
    }
    record.queue_poll = pool::Seconds(poll);
    if (!(value = json_.Member(line, "", "policy")) ||
        !json_.String(*value, "policy", record.policy_yaml)) {
      return false;
    }
    // A record that names no profile was made before there were profiles: by the design's rules.
    pool::PoolConfig made_before_profiles;
    made_before_profiles.profile = pool::PolicyProfile::kDesign;
    Result<pool::PoolConfig> policy =
        pool::ParsePoolConfig(record.policy_yaml, "policy", made_before_profiles);
    if (!policy) return json_.Fail("policy", policy.error_message());
    record.policy = std::move(*policy);
    return true;
  }

  bool Cycle(const Json& line, CycleRecord& cycle) {
    if (!json_.Object(line, "cycle")) return false;
    const Json* value = json_.Member(line, "", "t");
    if (!value || !json_.Number(*value, "t", 0, kMaxSeconds, cycle.t_s)) return false;
    if (!(value = json_.Member(line, "", "queue")) || !Queue(*value, cycle.queue)) return false;
    if (!Elements(line, "", "workers", &LineReader::Worker, cycle.workers) ||
        !Elements(line, "", "actions", &LineReader::Action, cycle.actions) ||
        !Elements(line, "", "reasons", &LineReader::ReasonOf, cycle.reasons)) {
      return false;
    }
    std::int64_t number = 0;
    if (!(value = json_.Member(line, "", "pressure")) ||
        !json_.Number(*value, "pressure", 0, std::numeric_limits<double>::max(), cycle.pressure)) {
      return false;
    }
    if (!(value = json_.Member(line, "", "capacity_slots")) ||
        !json_.Int(*value, "capacity_slots", 0, kMaxCount, number)) {
      return false;
    }
    cycle.capacity_slots = static_cast<int>(number);
    if (!(value = json_.Member(line, "", "demand")) ||
        !json_.Int(*value, "demand", 0, kMaxCount, number)) {
      return false;
    }
    cycle.demand = static_cast<int>(number);
    if (!(value = json_.Member(line, "", "seen")) ||
        !json_.StringList(*value, "seen", cycle.seen)) {
      return false;
    }
    return (value = json_.Member(line, "", "gone")) && json_.StringList(*value, "gone", cycle.gone);
  }

 private:
  // Elements reads the array `name` of `object`, which stands at `path`.
  // Each element goes into a new element of `out` through `read`.
  // `read` names the element's place in its error.
  template <typename T>
  bool Elements(const Json& object, const std::string& path, const char* name,
                bool (LineReader::*read)(const Json&, const std::string&, T&),
                std::vector<T>& out) {
    const std::string where = JsonReader::Child(path, name);
    const Json* value = json_.Member(object, path, name);
    if (!value || !json_.Array(*value, where)) return false;
    for (std::size_t i = 0; i < value->size(); ++i) {
      out.emplace_back();
      if (!(this->*read)((*value)[i], JsonReader::Element(where, i), out.back())) return false;
    }
    return true;
  }

  bool Queue(const Json& queue, pool::QueueSignal& out) {
    if (!json_.Object(queue, "queue")) return false;
    double age = 0;
    const Json* value = json_.Member(queue, "queue", "read_ok");
    if (!value || !json_.Bool(*value, "queue.read_ok", out.read_ok)) return false;
    if (!(value = json_.Member(queue, "queue", "data_age")) ||
        !json_.Number(*value, "queue.data_age", 0, kMaxSeconds, age)) {
      return false;
    }
    out.data_age = pool::Seconds(age);
    if (!Elements(queue, "queue", "pending", &LineReader::Pending, out.pending)) return false;
    if (!(value = json_.Member(queue, "queue", "completed_per_minute")) ||
        !json_.Object(*value, "queue.completed_per_minute")) {
      return false;
    }
    for (const auto& [type, rate] : value->items()) {
      double per_minute = 0;
      if (!json_.Number(rate, "queue.completed_per_minute." + type, 0, 1e9, per_minute)) {
        return false;
      }
      out.completed_per_minute[type] = per_minute;
    }
    return true;
  }

  bool Pending(const Json& job, const std::string& path, pool::PendingJob& out) {
    if (!json_.Object(job, path)) return false;
    std::int64_t number = 0;
    double seconds = 0;
    const auto integer = [&](const char* key, std::int64_t low, std::int64_t high, int& field) {
      const Json* value = json_.Member(job, path, key);
      if (!value || !json_.Int(*value, JsonReader::Child(path, key), low, high, number))
        return false;
      field = static_cast<int>(number);
      return true;
    };
    const auto flag = [&](const char* key, bool& field) {
      const Json* value = json_.Member(job, path, key);
      return value && json_.Bool(*value, JsonReader::Child(path, key), field);
    };
    const auto duration = [&](const char* key, double low, pool::Duration& field) {
      const Json* value = json_.Member(job, path, key);
      if (!value ||
          !json_.Number(*value, JsonReader::Child(path, key), low, kMaxSeconds, seconds)) {
        return false;
      }
      field = pool::Seconds(seconds);
      return true;
    };
    if (!json_.StringMember(job, path, "id", out.id) ||
        !json_.StringMember(job, path, "type", out.type)) {
      return false;
    }
    if (JsonReader::OptionalMember(job, "priority")) {
      int priority = 0;
      if (!integer("priority", 0, pool::kMaxPriority, priority)) return false;
      out.priority = priority;
    }
    return integer("resolution", 1, kMaxHeight, out.shape.resolution) &&
           integer("source_resolution", 0, kMaxHeight, out.shape.source_resolution) &&
           integer("fps", 1, 1000, out.shape.fps) && duration("duration", 0, out.shape.duration) &&
           flag("av1_source", out.shape.av1_source) && flag("av1_output", out.shape.av1_output) &&
           duration("age", 0, out.age);
  }

  bool Worker(const Json& worker, const std::string& path, RecordedWorker& out) {
    if (!json_.Object(worker, path)) return false;
    if (!json_.StringMember(worker, path, "name", out.name)) return false;
    if (out.name.empty()) return json_.Fail(JsonReader::Child(path, "name"), "expected a name");
    const Json* value = json_.Member(worker, path, "wakeable");
    if (!value || !json_.Bool(*value, JsonReader::Child(path, "wakeable"), out.wakeable)) {
      return false;
    }
    const Json* document = JsonReader::OptionalMember(worker, "document");
    const Json* lost = JsonReader::OptionalMember(worker, "lost");
    if ((document == nullptr) == (lost == nullptr)) {
      return json_.Fail(path, "expected either a document or why it was lost");
    }
    if (lost) {
      if (!json_.String(*lost, JsonReader::Child(path, "lost"), out.lost)) return false;
      if (out.lost.empty()) return json_.Fail(JsonReader::Child(path, "lost"), "expected a reason");
      return true;
    }
    out.document = document->dump();
    // The service's own reader is the judge of a document, as it was when the run read it.
    Result<pool::WorkerStatus> status = ParseWorkerStatus(out.document, out.name);
    if (!status) return json_.Fail(JsonReader::Child(path, "document"), status.error_message());
    return true;
  }

  bool Action(const Json& action, const std::string& path, pool::Action& out) {
    if (!json_.Object(action, path)) return false;
    std::string text;
    if (!json_.StringMember(action, path, "kind", text)) return false;
    const std::optional<pool::ActionKind> kind = ParseActionKind(text);
    if (!kind) return json_.Fail(JsonReader::Child(path, "kind"), "unknown action " + text);
    out.kind = *kind;
    if (!json_.StringMember(action, path, "worker", out.worker)) return false;
    if (!json_.StringMember(action, path, "reason", text)) return false;
    const std::optional<pool::ReasonCode> reason = ParseReasonId(text);
    if (!reason) return json_.Fail(JsonReader::Child(path, "reason"), "unknown reason " + text);
    out.reason = *reason;
    std::int64_t number = 0;
    const Json* value = nullptr;
    if (out.kind == pool::ActionKind::kEnable) {
      if (!(value = json_.Member(action, path, "concurrency")) ||
          !json_.Int(*value, JsonReader::Child(path, "concurrency"), 0, kMaxCount, number)) {
        return false;
      }
      out.concurrency = static_cast<int>(number);
    }
    if (out.kind == pool::ActionKind::kSetClasses) {
      if (!(value = json_.Member(action, path, "classes")) ||
          !json_.Int(*value, JsonReader::Child(path, "classes"), 0, pool::kEveryClass, number)) {
        return false;
      }
      out.classes = static_cast<pool::ClassMask>(number);
    }
    return true;
  }

  bool ReasonOf(const Json& reason, const std::string& path, pool::Reason& out) {
    if (!json_.Object(reason, path)) return false;
    std::string id;
    if (!json_.StringMember(reason, path, "reason", id)) return false;
    const std::optional<pool::ReasonCode> code = ParseReasonId(id);
    if (!code) return json_.Fail(JsonReader::Child(path, "reason"), "unknown reason " + id);
    out.code = *code;
    if (!json_.StringMember(reason, path, "worker", out.worker)) return false;
    return json_.StringMember(reason, path, "text", out.text);
  }

  JsonReader json_;
};

// Folds one cycle's seen and gone lists into the record's jobs; `index` finds a job by id.
std::string CollectJobs(const CycleRecord& cycle, std::map<std::string, std::size_t>& index,
                        std::vector<RecordedJob>& jobs) {
  for (const std::string& id : cycle.seen) {
    const auto pending = std::find_if(cycle.queue.pending.begin(), cycle.queue.pending.end(),
                                      [&](const pool::PendingJob& job) { return job.id == id; });
    if (pending == cycle.queue.pending.end()) return "seen: " + id + " is not in queue.pending";
    auto [at, added] = index.emplace(id, jobs.size());
    if (added) {
      RecordedJob job;
      job.id = id;
      job.type = pending->type;
      job.shape = pending->shape;
      job.priority = pending->priority;
      job.created_s = std::max(0.0, cycle.t_s - pending->age.count());
      jobs.push_back(std::move(job));
    }
    jobs[at->second].seen_s.push_back(cycle.t_s);
  }
  for (const std::string& id : cycle.gone) {
    const auto at = index.find(id);
    if (at == index.end()) return "gone: " + id + " was never seen";
    jobs[at->second].gone_s.push_back(cycle.t_s);
  }
  return "";
}

}  // namespace

Result<RunRecord> ParseRunRecord(std::string_view text, const std::string& file) {
  RunRecord record;
  std::size_t line_number = 0;
  bool header = false;
  double last_t = 0;
  std::map<std::string, std::size_t> jobs;
  for (std::string_view line; pool::NextJsonLine(text, line, line_number);) {
    const auto fail = [&](const std::string& what) {
      return InvalidInput(file + ": line " + std::to_string(line_number) + ": " + what);
    };
    const Json object = ParseJsonOrDiscarded(line);
    if (object.is_discarded()) return fail("not JSON (a line cut short?)");
    LineReader reader;
    if (!header) {
      if (!reader.Header(object, record)) return fail(reader.error_message());
      header = true;
      continue;
    }
    CycleRecord cycle;
    if (!reader.Cycle(object, cycle)) return fail(reader.error_message());
    if (!record.cycles.empty() && cycle.t_s < last_t) {
      return fail("t: earlier than the line before");
    }
    last_t = cycle.t_s;
    if (std::string what = CollectJobs(cycle, jobs, record.jobs); !what.empty()) return fail(what);
    record.cycles.push_back(std::move(cycle));
  }
  if (!header) return InvalidInput(file + ": no header line (the record is empty)");
  return record;
}

Result<pool::Signals> SignalsOf(const CycleRecord& cycle) {
  pool::Signals signals;
  signals.queue = cycle.queue;
  for (const RecordedWorker& worker : cycle.workers) {
    if (!worker.lost.empty()) {
      signals.workers.push_back(UnreadableWorker(worker.name));
      continue;
    }
    Result<pool::WorkerStatus> status = ParseWorkerStatus(worker.document, worker.name);
    if (!status) return status.error();
    status->wakeable = worker.wakeable;
    signals.workers.push_back(std::move(*status));
  }
  return signals;
}

}  // namespace mc::pool
