#include "pool/service/run_record.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_text.h"
#include "pool/policy/config_yaml.h"
#include "pool/policy/reasons.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;

Json PendingJson(const pool::PendingJob& job) {
  // The shape's keys are the trace's (docs/pool/simulator.md, "Traces").
  Json out{{"id", job.id},
           {"type", job.type},
           {"resolution", job.shape.resolution},
           {"source_resolution", job.shape.source_resolution},
           {"fps", job.shape.fps},
           {"duration", job.shape.duration.count()},
           {"av1_source", job.shape.av1_source},
           {"av1_output", job.shape.av1_output},
           {"age", job.age.count()}};
  if (job.priority) out["priority"] = *job.priority;
  return out;
}

Json QueueJson(const pool::QueueSignal& queue) {
  Json pending = Json::array();
  for (const pool::PendingJob& job : queue.pending) pending.push_back(PendingJson(job));
  return Json{{"read_ok", queue.read_ok},
              {"data_age", queue.data_age.count()},
              {"pending", std::move(pending)},
              {"completed_per_minute", queue.completed_per_minute}};
}

Json WorkerJson(const RecordedWorker& worker) {
  Json out{{"name", worker.name}, {"wakeable", worker.wakeable}};
  if (worker.lost.empty()) {
    // The document is embedded as the object it is, so the line stays one JSON value.
    out["document"] = ParseJsonOrDiscarded(worker.document);
  } else {
    out["lost"] = worker.lost;
  }
  return out;
}

Json ActionJson(const pool::Action& action) {
  Json out{{"kind", pool::ActionKindName(action.kind)},
           {"worker", action.worker},
           {"reason", pool::ReasonRow(action.reason).id}};
  if (action.kind == pool::ActionKind::kEnable) out["concurrency"] = action.concurrency;
  if (action.kind == pool::ActionKind::kSetClasses) out["classes"] = action.classes;
  return out;
}

}  // namespace

std::string RecordHeaderLine(const pool::PoolConfig& policy, pool::Duration queue_poll) {
  return JsonText(Json{{"record", "pool-run"},
                       {"version", 1},
                       {"queue_poll", queue_poll.count()},
                       {"policy", pool::PoolConfigToYaml(policy)}});
}

std::string CycleLine(const CycleRecord& cycle) {
  Json workers = Json::array();
  for (const RecordedWorker& worker : cycle.workers) workers.push_back(WorkerJson(worker));
  Json actions = Json::array();
  for (const pool::Action& action : cycle.actions) actions.push_back(ActionJson(action));
  Json reasons = Json::array();
  for (const pool::Reason& reason : cycle.reasons) {
    reasons.push_back(Json{{"reason", pool::ReasonRow(reason.code).id},
                           {"worker", reason.worker},
                           {"text", reason.text}});
  }
  return JsonText(Json{{"t", cycle.t_s},
                       {"queue", QueueJson(cycle.queue)},
                       {"workers", std::move(workers)},
                       {"actions", std::move(actions)},
                       {"reasons", std::move(reasons)},
                       {"pressure", cycle.pressure},
                       {"capacity_slots", cycle.capacity_slots},
                       {"demand", cycle.demand},
                       {"seen", cycle.seen},
                       {"gone", cycle.gone}});
}

}  // namespace mc::pool
