// The probe's table output: one row per GPU, like kubectl's wide output, so that a person
// sees at a glance which GPU states what.
#pragma once

#include <string>
#include <vector>

#include "pipeline/probe_pipeline.h"

namespace mc {

std::string ProbeTable(const std::vector<DeviceReport>& reports);

}  // namespace mc
