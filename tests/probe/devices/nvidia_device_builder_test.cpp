#include <gtest/gtest.h>

#include <set>

#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/devices/device_builder.h"

namespace mc::probe {
namespace {

Gpu NvidiaGpu() {
  Gpu gpu;
  gpu.bus = "pci";
  gpu.pci_address = "0000:01:00.0";
  gpu.kernel_driver = "nvidia";
  gpu.vendor_id = "10de";
  gpu.product_id = "2684";
  gpu.product_name = "AD102 [GeForce RTX 4090]";
  gpu.device_name = "pci-0000-01-00-0";
  return gpu;
}

NvidiaFacts GeForceThatEncodesH264() {
  NvidiaFacts facts;
  facts.driver_version = "580.95.05";
  facts.name = "NVIDIA GeForce RTX 4090";
  facts.cuda_context = true;
  facts.decoders = {{cudaVideoCodec_H264, cudaVideoChromaFormat_420, 8, true, 1, 4096, 4096, 0x1}};
  facts.encoder.available = true;
  facts.encoder.codecs = {{"H264", {"Main", "High"}, false, 4096, 4096}};
  return facts;
}

std::optional<std::int64_t> Sessions(const Device& device) {
  for (const auto& [name, value] : device.capacity) {
    if (name == kEncodeSessionsCapacity) return value.value;
  }
  return std::nullopt;
}

TEST(NvidiaDeviceBuilder, EveryCapabilityIsPublishedAndTheApiIsNvidia) {
  const Device device = BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264());
  for (const Capability& capability : kCapabilities) {
    const AttributeValue* value = device.Attribute(std::string(capability.name));
    ASSERT_NE(value, nullptr) << capability.name;
    const bool expected = capability.name == "decodeH264" || capability.name == "encodeH264" ||
                          capability.name == "scale8bit";
    EXPECT_EQ(std::get<bool>(*value), expected) << capability.name;
  }
  EXPECT_EQ(std::get<std::string>(*device.Attribute("api")), "nvidia");
  EXPECT_EQ(std::get<std::string>(*device.Attribute("driverVersion")), "580.95.05");
}

TEST(NvidiaDeviceBuilder, TheIdentityIsPublishedUnderTheSameNamesAsForVaApi) {
  const Device nvidia = BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264());
  const Device va = BuildVaDevice(NvidiaGpu(), Error{"not asked"});
  for (const char* name : {kPciBusIdAttribute, "address", "driver", "vendor", "product", "name"}) {
    ASSERT_NE(nvidia.Attribute(name), nullptr) << name;
    EXPECT_EQ(*nvidia.Attribute(name), *va.Attribute(name)) << name;
  }
  EXPECT_EQ(nvidia.name, "pci-0000-01-00-0");
}

TEST(NvidiaDeviceBuilder, CudasNameStandsInWhenThePciDatabaseHasNone) {
  Gpu gpu = NvidiaGpu();
  gpu.product_name.clear();
  const Device device = BuildNvidiaDevice(gpu, GeForceThatEncodesH264());
  EXPECT_EQ(std::get<std::string>(*device.Attribute("name")), "NVIDIA GeForce RTX 4090");
}

TEST(NvidiaDeviceBuilder, AGeForceThatEncodesGetsTheSessionCapOfItsDriver) {
  EXPECT_EQ(Sessions(BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264())), 8);
}

TEST(NvidiaDeviceBuilder, TwoGeForcesOnOneNodeShareTheSystemsCap) {
  EXPECT_EQ(Sessions(BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264(), 2)), 4);
}

TEST(NvidiaDeviceBuilder, AProfessionalBoardHasNoSessionCapacity) {
  NvidiaFacts facts = GeForceThatEncodesH264();
  facts.name = "NVIDIA RTX 6000 Ada Generation";
  EXPECT_EQ(Sessions(BuildNvidiaDevice(NvidiaGpu(), facts)), std::nullopt);
}

TEST(NvidiaDeviceBuilder, AGpuThatCannotEncodeHasNoSessionCapacity) {
  NvidiaFacts facts = GeForceThatEncodesH264();
  facts.encoder = {};
  facts.encoder.unavailable_reason =
      "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)";
  const Device device = BuildNvidiaDevice(NvidiaGpu(), facts);
  EXPECT_TRUE(device.capacity.empty());
  EXPECT_FALSE(std::get<bool>(*device.Attribute("encodeH264")));
}

TEST(NvidiaDeviceBuilder, AFailedQueryPublishesEveryCapabilityFalseAndNoDriverVersion) {
  const Device device =
      BuildNvidiaDevice(NvidiaGpu(), Error{"cuInit failed: CUDA_ERROR_NO_DEVICE (100)"});
  for (const Capability& capability : kCapabilities) {
    EXPECT_FALSE(std::get<bool>(*device.Attribute(std::string(capability.name))))
        << capability.name;
  }
  EXPECT_EQ(device.Attribute("driverVersion"), nullptr);
  EXPECT_TRUE(device.capacity.empty());
  EXPECT_EQ(std::get<std::string>(*device.Attribute("api")), "nvidia");
}

TEST(NvidiaDeviceBuilder, AClaimThatNamesNoSessionsConsumesNone) {
  const Device device = BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264());
  ASSERT_EQ(device.capacity.size(), 1u);
  EXPECT_EQ(device.capacity[0].second.default_request, 0);
}

TEST(NvidiaDeviceBuilder, ADeviceStaysWithinTheApisLimitOfAttributesAndCapacities) {
  const Device device = BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264());
  ASSERT_FALSE(device.capacity.empty());
  EXPECT_LE(device.attributes.size() + device.capacity.size(), kMaxAttributesAndCapacities);
}

TEST(NvidiaDeviceBuilder, AttributeNamesAreUniqueAndWithinTheApisLengthLimit) {
  const Device device = BuildNvidiaDevice(NvidiaGpu(), GeForceThatEncodesH264());
  std::set<std::string> seen;
  for (const auto& [name, value] : device.attributes) {
    EXPECT_TRUE(seen.insert(name).second) << name;
    const std::size_t slash = name.find('/');
    EXPECT_LE(name.size() - (slash == std::string::npos ? 0 : slash + 1), 32u) << name;
  }
}

}  // namespace
}  // namespace mc::probe
