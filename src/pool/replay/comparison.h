// The comparison of a replay: the real run's promotions and demotions against the simulated.
// They are paired in order. They agree when:
//  - every pair is the same decision for the same worker;
//  - the simulated one lies within one cycle of the real one;
//  - neither side has one more.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pool/replay/decision_events.h"

namespace mc::pool {

struct ComparedRow {
  std::optional<DecisionEvent> real, simulated;
  bool agrees = false;
};

struct Comparison {
  double cycle_s = 0;
  std::vector<ComparedRow> rows;
  bool agrees = true;
  std::string first_disagreement;  // in words; empty when they agree
};

Comparison Compare(const std::vector<DecisionEvent>& real,
                   const std::vector<DecisionEvent>& simulated, double cycle_s);

std::string ComparisonTable(const Comparison& comparison);
std::string ComparisonJson(const Comparison& comparison);

}  // namespace mc::pool
