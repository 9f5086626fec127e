// The short lists of what a device holds, in people's words, not attribute names. What it
// encodes reads "h264 hevc av1; 10-bit: hevc". They are read from the capability table's
// listings. So a capability added to the table shows up in them.
#pragma once

#include <string>
#include <string_view>

#include "probe/capabilities/capability_table.h"
#include "probe/devices/device.h"

namespace mc {

// HoldsCapability says whether `device` publishes the boolean attribute `capability` true.
bool HoldsCapability(const probe::Device& device, std::string_view capability);

// CapabilityList names the capabilities of one kind of work that `device` holds. They come
// in the capability table's order:
//  - codecs: the 8-bit ones, then each other bit depth as "10-bit: hevc av1";
//  - scaling: the bit depths ("8-bit 10-bit").
// It is empty when the device holds none.
std::string CapabilityList(const probe::Device& device, probe::Listing::Work work);

}  // namespace mc
