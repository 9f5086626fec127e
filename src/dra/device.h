// Device is one entry of a ResourceSlice's `devices` list, as this driver publishes it:
// a name, typed attributes and capacities. It is the common shape of the probe's output
// and, later, of the published slices, so the two cannot say different things.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mc {

// AttributeValue mirrors the API's DeviceAttribute: exactly one of bool, int or string.
using AttributeValue = std::variant<bool, std::int64_t, std::string>;

struct Device {
  std::string name;
  // In publication order: the capability table's order, then identity. Names are unique.
  std::vector<std::pair<std::string, AttributeValue>> attributes;
  // Capacities by name, each a whole number published as a quantity.
  std::vector<std::pair<std::string, std::int64_t>> capacity;
  // A media device delivers nothing of its own, so any number of claims may share it.
  bool allow_multiple_allocations = true;

  const AttributeValue* Attribute(const std::string& attribute_name) const;
  bool operator==(const Device&) const = default;
};

}  // namespace mc
