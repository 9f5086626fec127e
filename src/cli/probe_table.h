// The probe's tables. The default one is for people, wrapped to 80 columns. Per GPU it has:
//  - a heading with its name and model;
//  - its API and driver;
//  - short lists of what it decodes, encodes (full and low-power apart) and scales.
// The wide one has one column per capability, like kubectl's wide output. It is for scripts
// that want every attribute by name.
#pragma once

#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"

namespace mc {

std::string ProbeTable(const std::vector<probe::DeviceReport>& reports);
std::string ProbeWideTable(const std::vector<probe::DeviceReport>& reports);

}  // namespace mc
