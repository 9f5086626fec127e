// The probe's tables. The default one is for people: per GPU a heading with its name and
// model, then its API, driver and short lists of what it decodes, encodes (full and low-power
// apart) and scales, wrapped to 80 columns. The wide one has one column per capability, like
// kubectl's wide output, for scripts that want every attribute by name.
#pragma once

#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"

namespace mc {

std::string ProbeTable(const std::vector<probe::DeviceReport>& reports);
std::string ProbeWideTable(const std::vector<probe::DeviceReport>& reports);

}  // namespace mc
