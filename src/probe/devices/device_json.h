// The API's JSON form of a device (the objects of a ResourceSlice's spec.devices), and
// the same document as YAML, for the probe's --output json|yaml.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "probe/devices/device.h"

namespace mc::probe {

// DevicesJsonValue is the list itself, for a caller that puts it into a larger document.
nlohmann::ordered_json DevicesJsonValue(const std::vector<Device>& devices);
std::string DevicesToJson(const std::vector<Device>& devices);
std::string DevicesToYaml(const std::vector<Device>& devices);

}  // namespace mc::probe
