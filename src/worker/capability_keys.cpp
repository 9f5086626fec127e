#include "worker/capability_keys.h"

#include <string>
#include <variant>

namespace mc::worker {

CapabilityFlags CapabilityFlagsOf(const Device& device) {
  CapabilityFlags flags{};
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    const CapabilityKey& key = kCapabilityKeys[i];
    for (std::size_t j = 0; j < key.attribute_count; ++j) {
      const AttributeValue* value = device.Attribute(std::string(key.attributes[j]));
      if (value && std::holds_alternative<bool>(*value) && std::get<bool>(*value)) flags[i] = true;
    }
  }
  return flags;
}

bool EncodesAnything(const CapabilityFlags& flags) {
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    if (kCapabilityKeys[i].encodes && flags[i]) return true;
  }
  return false;
}

}  // namespace mc::worker
