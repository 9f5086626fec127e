// The short lists of what a device holds, in the words of people rather than of attribute
// names: "h264 hevc av1; 10-bit: hevc" for what it encodes. They are read from the
// capability table's listings, so a capability added to the table shows up in them.
#pragma once

#include <string>
#include <string_view>

#include "dra/devices/device.h"
#include "probe/capabilities/capability_table.h"

namespace mc {

// HoldsCapability says whether `device` publishes the boolean attribute `capability` true.
bool HoldsCapability(const dra::Device& device, std::string_view capability);

// CapabilityList names the capabilities of one kind of work that `device` holds, in the
// order of the capability table: for codecs the 8-bit ones, then each other bit depth as
// "10-bit: hevc av1"; for scaling the bit depths ("8-bit 10-bit"). It is empty when the
// device holds none.
std::string CapabilityList(const dra::Device& device, probe::Listing::Work work);

}  // namespace mc
