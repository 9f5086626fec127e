#include "probe/devices/device.h"

namespace mc::probe {

const AttributeValue* Device::Attribute(const std::string& attribute_name) const {
  for (const auto& [name, value] : attributes) {
    if (name == attribute_name) return &value;
  }
  return nullptr;
}

}  // namespace mc::probe
