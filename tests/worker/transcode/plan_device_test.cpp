#include "worker/transcode/plan_device.h"

#include <gtest/gtest.h>

#include "test_media.h"

namespace mc::worker {
namespace {

using testing::FixtureDeviceNamed;

TEST(PlanDevice, ReadsTheAdaRecordAsTheProbePrintsIt) {
  const PlanDevice& device = FixtureDeviceNamed("ada-geforce-rtx4090");
  EXPECT_EQ(device.name, "pci-0000-01-00-0");
  EXPECT_EQ(device.api, "nvidia");
  EXPECT_EQ(device.pci_address, "0000:01:00.0");
  EXPECT_EQ(device.vendor_id, "10de");
  EXPECT_TRUE(device.Flag("encodeH264"));
  EXPECT_TRUE(device.Flag("decodeHEVCMain10"));
  EXPECT_FALSE(device.Flag("encodeH264LowPower"));
  EXPECT_FALSE(device.Flag("anAttributeNoDevicePublishes"));
  EXPECT_EQ(device.encode_sessions, 8);
}

TEST(PlanDevice, ReadsAVaapiDumpWithTheLowPowerEntryPointAlone) {
  const PlanDevice& device = FixtureDeviceNamed("intel-ihd-arc-likely-24.1");
  EXPECT_EQ(device.api, "vaapi");
  EXPECT_EQ(device.vendor_id, "8086");
  EXPECT_FALSE(device.Flag("encodeH264"));
  EXPECT_TRUE(device.Flag("encodeH264LowPower"));
  EXPECT_FALSE(device.encode_sessions.has_value());
}

TEST(PlanDevice, TakesOneElementOrAnArrayOfOne) {
  const std::string element =
      R"({"name":"gpu","attributes":{"api":{"string":"vaapi"},"encodeH264":{"bool":true},)"
      R"("resource.kubernetes.io/pciBusID":{"string":"0000:03:00.0"},"memory":{"int":4}}})";
  Result<PlanDevice> bare = ParsePlanDevice(element);
  ASSERT_TRUE(bare) << bare.error_message();
  EXPECT_EQ(bare->pci_address, "0000:03:00.0");
  Result<PlanDevice> in_array = ParsePlanDevice("[" + element + "]");
  ASSERT_TRUE(in_array) << in_array.error_message();
  EXPECT_EQ(in_array->name, "gpu");
}

struct BadDevice {
  const char* json;
  const char* error;
};

class PlanDeviceBadInput : public ::testing::TestWithParam<BadDevice> {};

TEST_P(PlanDeviceBadInput, NamesThePlaceOfTheError) {
  Result<PlanDevice> device = ParsePlanDevice(GetParam().json);
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error_message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PlanDeviceBadInput,
    ::testing::Values(
        BadDevice{"{", "the device is not valid JSON"},
        BadDevice{"[]", "device: expected one device, the array holds 0"},
        BadDevice{R"([{"name":"a","attributes":{}},{"name":"b","attributes":{}}])",
                  "device: expected one device, the array holds 2"},
        BadDevice{R"({"attributes":{}})", "device.name: missing"},
        BadDevice{R"([{"name":"a","attributes":{"api":{"string":7}}}])",
                  "device[0].attributes.api.string: expected a string"},
        BadDevice{R"({"name":"a","attributes":{"api":{"string":"cuda"}}})",
                  "device.attributes.api: \"cuda\" is neither \"nvidia\" nor \"vaapi\""},
        BadDevice{R"({"name":"a","attributes":{"encodeH264":{"bool":1}}})",
                  "device.attributes.encodeH264.bool: expected true or false"},
        BadDevice{R"({"name":"a","attributes":{"x":{"bool":true,"int":1}}})",
                  "device.attributes.x: expected exactly one of \"bool\", \"string\", \"int\""},
        BadDevice{R"({"name":"a","attributes":{"x":{"float":1.5}}})",
                  "device.attributes.x: unknown attribute type \"float\""},
        BadDevice{R"({"name":"a","attributes":{"encodeH264":{"bool":true}}})",
                  "device.attributes.api: missing"},
        BadDevice{R"({"name":"a","attributes":{"api":{"string":"nvidia"}},)"
                  R"("capacity":{"encodeSessions":{"value":"8x"}}})",
                  "device.capacity.encodeSessions.value: expected a string of digits, got \"8x\""},
        BadDevice{R"({"name":"a","attributes":{"api":{"string":"nvidia"}},)"
                  R"("capacity":{"encodeSessions":{}}})",
                  "device.capacity.encodeSessions.value: missing"}));

}  // namespace
}  // namespace mc::worker
