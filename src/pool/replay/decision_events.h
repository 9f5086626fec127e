// The decisions a replay compares: the promotions and the demotions, each with its worker and
// its time. Which actions count as which is a table, defined once (decision_events.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/decision.h"
#include "pool/service/run_record.h"
#include "pool/simulator/simulator.h"

namespace mc::pool {

struct DecisionEvent {
  std::string what;  // "promotion" or "demotion"
  std::string worker;
  double t_s = 0;  // from the run's first cycle
};

// The event an action is, or an empty `what` when a replay does not compare it.
std::string_view EventOf(const pool::Action& action);

std::vector<DecisionEvent> RecordedEvents(const pool::RunRecord& record);
std::vector<DecisionEvent> SimulatedEvents(const pool::SimResult& result);

}  // namespace mc::pool
