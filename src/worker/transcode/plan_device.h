// The one GPU a plan is made for, as `probe --output json` prints it. It is one element of the
// array, or an array of exactly one element. Attributes are {"bool": x}, {"string": s} or {"int":
// n}. capacity.encodeSessions.value is a string of digits.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

struct PlanDevice {
  std::string name;         // "pci-0000-01-00-0"
  std::string api;          // "nvidia" | "vaapi"
  std::string pci_address;  // attribute "address" (or resource.kubernetes.io/pciBusID)
  std::string vendor_id;    // attribute "vendor", e.g. "10de", "8086", "1002"
  // Every bool attribute: decodeH264, encodeH264LowPower, scale10bit, ...
  std::map<std::string, bool> flags;
  std::optional<std::int64_t> encode_sessions;

  // Flag is the bool attribute `name`. An attribute the device does not publish is false.
  bool Flag(std::string_view attribute) const;
};

// ParsePlanDevice reads the device. Every error names its place, such as
// "[0].attributes.api.string: expected a string".
Result<PlanDevice> ParsePlanDevice(std::string_view device_json);

}  // namespace mc::worker
