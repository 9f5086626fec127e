#include "pool/replay/decision_events.h"

namespace mc::pool {

namespace {

struct EventRow {
  pool::ActionKind kind;
  pool::ReasonCode reason;
  const char* what;
};

// A worker enabled for the pressure, the queued work or the pool's minimum is a promotion.
// One drained for low pressure, or for work the others finish in time, is a demotion.
// A drain for a fault, a probe or a class change follows the workers' own timings.
// A replay models those but does not compare them.
constexpr EventRow kCompared[] = {
    {pool::ActionKind::kEnable, pool::ReasonCode::kPromoted, "promotion"},
    {pool::ActionKind::kEnable, pool::ReasonCode::kBelowMinActive, "promotion"},
    {pool::ActionKind::kEnable, pool::ReasonCode::kWorkEnabled, "promotion"},
    {pool::ActionKind::kDrain, pool::ReasonCode::kDemoted, "demotion"},
    {pool::ActionKind::kDrain, pool::ReasonCode::kWorkReleased, "demotion"},
};

}  // namespace

std::string_view EventOf(const pool::Action& action) {
  for (const EventRow& row : kCompared) {
    if (row.kind == action.kind && row.reason == action.reason) return row.what;
  }
  return {};
}

std::vector<DecisionEvent> RecordedEvents(const pool::RunRecord& record) {
  std::vector<DecisionEvent> events;
  if (record.cycles.empty()) return events;
  const double start = record.cycles.front().t_s;
  for (const pool::CycleRecord& cycle : record.cycles) {
    for (const pool::Action& action : cycle.actions) {
      const std::string_view what = EventOf(action);
      if (!what.empty()) events.push_back({std::string(what), action.worker, cycle.t_s - start});
    }
  }
  return events;
}

std::vector<DecisionEvent> SimulatedEvents(const pool::SimResult& result) {
  std::vector<DecisionEvent> events;
  for (const pool::TimedAction& timed : result.actions) {
    const std::string_view what = EventOf(timed.action);
    if (!what.empty()) events.push_back({std::string(what), timed.action.worker, timed.t_s});
  }
  return events;
}

}  // namespace mc::pool
