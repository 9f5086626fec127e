// The API's JSON form of a device (the objects of a ResourceSlice's spec.devices), and
// the same document as YAML, for the probe's --output json|yaml.
#pragma once

#include <string>
#include <vector>

#include "dra/device.h"

namespace mc {

std::string DevicesToJson(const std::vector<Device>& devices);
std::string DevicesToYaml(const std::vector<Device>& devices);

}  // namespace mc
