#include "cli/capability_lists.h"

#include <map>

namespace mc {
namespace {

std::string BitDepth(int bits) { return std::to_string(bits) + "-bit"; }

void Append(std::string& list, std::string_view word) {
  if (!list.empty()) list += ' ';
  list += word;
}

}  // namespace

bool HoldsCapability(const probe::Device& device, std::string_view capability) {
  const probe::AttributeValue* value = device.Attribute(std::string(capability));
  return value && std::holds_alternative<bool>(*value) && std::get<bool>(*value);
}

std::string CapabilityList(const probe::Device& device, probe::Listing::Work work) {
  // The 8-bit codecs are the common case and go unlabelled, first.
  std::map<int, std::string> codecs_by_depth;
  std::string list;
  for (const probe::Capability& capability : probe::kCapabilities) {
    const probe::Listing& listing = capability.listing;
    if (listing.work != work || !HoldsCapability(device, capability.name)) continue;
    if (listing.codec.empty()) {
      Append(list, BitDepth(listing.bit_depth));
    } else {
      Append(codecs_by_depth[listing.bit_depth], listing.codec);
    }
  }
  if (const auto eight = codecs_by_depth.find(8); eight != codecs_by_depth.end()) {
    Append(list, eight->second);
    codecs_by_depth.erase(eight);
  }
  for (const auto& [depth, codecs] : codecs_by_depth) {
    if (!list.empty()) list += ';';
    Append(list, BitDepth(depth) + ": " + codecs);
  }
  return list;
}

}  // namespace mc
