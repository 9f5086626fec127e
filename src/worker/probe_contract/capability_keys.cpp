#include "worker/probe_contract/capability_keys.h"

#include <string>
#include <variant>

namespace mc::worker {

CapabilityFlags CapabilityFlagsOf(const std::function<bool(std::string_view)>& attribute_true) {
  CapabilityFlags flags{};
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    const CapabilityKey& key = kCapabilityKeys[i];
    for (std::size_t j = 0; j < key.attribute_count; ++j) {
      if (attribute_true(key.attributes[j])) flags[i] = true;
    }
  }
  return flags;
}

CapabilityFlags CapabilityFlagsOf(const probe::Device& device) {
  return CapabilityFlagsOf([&device](std::string_view name) {
    const probe::AttributeValue* value = device.Attribute(std::string(name));
    return value && std::holds_alternative<bool>(*value) && std::get<bool>(*value);
  });
}

bool EncodesAnything(const CapabilityFlags& flags) {
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    if (kCapabilityKeys[i].encodes && flags[i]) return true;
  }
  return false;
}

}  // namespace mc::worker
