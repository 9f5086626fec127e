// A simulation's measures for a person (a table), for a program (JSON), and P over time as
// an SVG plot to put beside the table.
#pragma once

#include <string>
#include <vector>

#include "pool/simulator/simulator.h"

namespace mc::pool {

std::string ResultTable(const SimResult& result);
std::string ResultJson(const SimResult& result);
// One trace under several policies, a row each: the comparison `pool simulate --compare` prints.
struct NamedResult {
  std::string name;
  SimResult result;
};
std::string CompareTable(const std::vector<NamedResult>& runs);
std::string CompareJson(const std::vector<NamedResult>& runs);
// PressurePlot draws P (0..1) and the workers that are on over the simulated span.
std::string PressurePlot(const SimResult& result, const std::string& title);

}  // namespace mc::pool
