// The probe's tables. The default one is for people: per GPU a heading with its name, API
// and driver, then short lists of what it decodes, encodes (full and low-power apart) and
// scales, in the width of a terminal. The wide one has one column per capability, like
// kubectl's wide output, for scripts that want every attribute by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pipeline/probe_pipeline.h"

namespace mc {

// What a capability is listed under in the people's table, and as what.
struct CapabilityLabel {
  enum class Group { kDecodes, kEncodes, kEncodesLowPower, kScales };
  std::string_view capability;
  Group group;
  std::string_view label;
};

// kCapabilityLabels names every capability of the capability table once, in the order the
// lists show them.
extern const std::vector<CapabilityLabel> kCapabilityLabels;

std::string ProbeTable(const std::vector<DeviceReport>& reports);
std::string ProbeWideTable(const std::vector<DeviceReport>& reports);

}  // namespace mc
