// Device is one entry of a ResourceSlice's `devices` list, as this driver publishes it:
// a name, typed attributes and capacities. It is the common shape of the probe's output
// and of the published slices, so the two cannot say different things.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mc::probe {

// AttributeValue mirrors the API's DeviceAttribute: exactly one of bool, int or string.
using AttributeValue = std::variant<bool, std::int64_t, std::string>;

// Capacity is a countable resource of a device that claims consume, such as encode sessions.
struct Capacity {
  std::int64_t value = 0;
  // What a claim that does not name the capacity consumes. When set, a claim may ask for
  // any whole number from 0 to `value` (the API's requestPolicy). Without it, a claim that
  // does not name the capacity consumes all of it.
  std::optional<std::int64_t> default_request;

  bool operator==(const Capacity&) const = default;
};

struct Device {
  std::string name;
  // In publication order: the capability table's order, then identity. Names are unique.
  std::vector<std::pair<std::string, AttributeValue>> attributes;
  // Capacities by name, each published as a quantity.
  std::vector<std::pair<std::string, Capacity>> capacity;
  // A media device delivers nothing of its own, so any number of claims may share it.
  bool allow_multiple_allocations = true;

  const AttributeValue* Attribute(const std::string& attribute_name) const;
  bool operator==(const Device&) const = default;
};

}  // namespace mc::probe
