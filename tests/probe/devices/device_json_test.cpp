#include "probe/devices/device_json.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

namespace mc::probe {
namespace {

Device Example() {
  Device device;
  device.name = "pci-0000-00-02-0";
  device.attributes = {{"decodeH264", true},
                       {"scale10bit", false},
                       {"vendor", std::string("8086")},
                       {"count", std::int64_t{3}}};
  device.capacity = {{"encodeSessions", {8, 0}}, {"fixed", {2, std::nullopt}}};
  return device;
}

TEST(DeviceJson, AttributesAreTypedAsTheApiWritesThem) {
  const nlohmann::json document = nlohmann::json::parse(DevicesToJson({Example()}));
  const nlohmann::json expected = nlohmann::json::parse(R"([{
    "name": "pci-0000-00-02-0",
    "attributes": {
      "decodeH264": {"bool": true},
      "scale10bit": {"bool": false},
      "vendor": {"string": "8086"},
      "count": {"int": 3}
    },
    "capacity": {
      "encodeSessions": {"value": "8", "requestPolicy": {"default": "0", "validRange": {"min": "0", "max": "8", "step": "1"}}},
      "fixed": {"value": "2"}
    },
    "allowMultipleAllocations": true
  }])");
  EXPECT_EQ(document, expected);
}

TEST(DeviceJson, NoDevicesIsAnEmptyList) { EXPECT_EQ(DevicesToJson({}), "[]\n"); }

TEST(DeviceJson, TheYamlFormIsTheSameDocument) {
  const YAML::Node yaml = YAML::Load(DevicesToYaml({Example()}));
  ASSERT_TRUE(yaml.IsSequence());
  const YAML::Node device = yaml[0];
  EXPECT_EQ(device["name"].as<std::string>(), "pci-0000-00-02-0");
  EXPECT_TRUE(device["attributes"]["decodeH264"]["bool"].as<bool>());
  // A string that looks like a number stays a string.
  EXPECT_EQ(device["attributes"]["vendor"]["string"].Tag(), "!");
  EXPECT_EQ(device["attributes"]["vendor"]["string"].as<std::string>(), "8086");
  EXPECT_EQ(device["attributes"]["count"]["int"].as<int>(), 3);
  EXPECT_EQ(device["capacity"]["encodeSessions"]["value"].as<std::string>(), "8");
  EXPECT_EQ(
      device["capacity"]["encodeSessions"]["requestPolicy"]["validRange"]["max"].as<std::string>(),
      "8");
  EXPECT_TRUE(device["allowMultipleAllocations"].as<bool>());
}

}  // namespace
}  // namespace mc::probe
