// A simulation's measures for a person (a table), for a program (JSON), and P over time as
// an SVG plot to put beside the table.
#pragma once

#include <string>

#include "pool/policy/simulator.h"

namespace mc::pool {

std::string ResultTable(const SimResult& result);
std::string ResultJson(const SimResult& result);
// PressurePlot draws P (0..1) and the workers that are on over the simulated span.
std::string PressurePlot(const SimResult& result, const std::string& title);

}  // namespace mc::pool
