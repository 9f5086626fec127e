#include "probe/devices/device_builder.h"

#include <gtest/gtest.h>

#include <set>

#include "probe/capabilities/capability_table.h"

namespace mc::probe {
namespace {

Gpu IntelGpu() {
  Gpu gpu;
  gpu.render_node = "/dev/dri/renderD128";
  gpu.bus = "pci";
  gpu.pci_address = "0000:00:02.0";
  gpu.kernel_driver = "i915";
  gpu.vendor_id = "8086";
  gpu.product_id = "46a6";
  gpu.product_name = "Alder Lake-P Integrated Graphics Controller";
  gpu.device_name = "pci-0000-00-02-0";
  return gpu;
}

VaFacts DecodesH264() {
  VaFacts facts;
  facts.vendor = "Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()";
  facts.configs = {{VAProfileH264High, VAEntrypointVLD, VA_RT_FORMAT_YUV420}};
  return facts;
}

TEST(DeviceBuilder, EveryDeviceHasEveryCapabilityTrueOrFalse) {
  const Device device = BuildVaDevice(IntelGpu(), DecodesH264());
  EXPECT_EQ(device.name, "pci-0000-00-02-0");
  for (const Capability& capability : kCapabilities) {
    const AttributeValue* value = device.Attribute(std::string(capability.name));
    ASSERT_NE(value, nullptr) << capability.name;
    EXPECT_EQ(std::get<bool>(*value), capability.name == "decodeH264") << capability.name;
  }
  EXPECT_TRUE(device.allow_multiple_allocations);
}

TEST(DeviceBuilder, TheIdentityOfTheGpuIsPublished) {
  const Device device = BuildVaDevice(IntelGpu(), DecodesH264());
  auto text = [&](const char* name) { return std::get<std::string>(*device.Attribute(name)); };
  EXPECT_EQ(text(kPciBusIdAttribute), "0000:00:02.0");
  EXPECT_EQ(text("address"), "0000:00:02.0");
  EXPECT_EQ(text("driver"), "i915");
  EXPECT_EQ(text("vendor"), "8086");
  EXPECT_EQ(text("product"), "46a6");
  EXPECT_EQ(text("name"), "Alder Lake-P Integrated Graphics Controller");
  EXPECT_EQ(text("vaDriver"), "Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()");
  EXPECT_EQ(text("api"), "vaapi");
}

TEST(DeviceBuilder, AFailedQueryPublishesEveryCapabilityFalseAndNoVaDriver) {
  const Device device = BuildVaDevice(IntelGpu(), Error{"vaInitialize failed"});
  for (const Capability& capability : kCapabilities) {
    EXPECT_FALSE(std::get<bool>(*device.Attribute(std::string(capability.name))))
        << capability.name;
  }
  EXPECT_EQ(device.Attribute("vaDriver"), nullptr);
  EXPECT_NE(device.Attribute(kPciBusIdAttribute), nullptr);
}

TEST(DeviceBuilder, AGpuOffPciHasNoPciBusId) {
  Gpu gpu;
  gpu.render_node = "/dev/dri/renderD128";
  gpu.device_name = "renderd128";
  gpu.kernel_driver = "panfrost";
  const Device device = BuildVaDevice(gpu, DecodesH264());
  EXPECT_EQ(device.Attribute(kPciBusIdAttribute), nullptr);
  EXPECT_EQ(device.Attribute("address"), nullptr);
  EXPECT_EQ(std::get<std::string>(*device.Attribute("driver")), "panfrost");
}

TEST(DeviceBuilder, ALongVendorStringIsCutTo64BytesWithoutSplittingACharacter) {
  VaFacts facts = DecodesH264();
  facts.vendor = std::string(63, 'v') + "é and more";
  const Device device = BuildVaDevice(IntelGpu(), facts);
  EXPECT_EQ(std::get<std::string>(*device.Attribute("vaDriver")), std::string(63, 'v'));
}

TEST(DeviceBuilder, AVendorStringThatIsNotUtf8IsMadeValid) {
  VaFacts facts = DecodesH264();
  facts.vendor = "vendor \xfe\xff";
  const Device device = BuildVaDevice(IntelGpu(), facts);
  EXPECT_EQ(std::get<std::string>(*device.Attribute("vaDriver")),
            "vendor \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(DeviceBuilder, AnEmptyVendorStringPublishesNoVaDriver) {
  VaFacts facts = DecodesH264();
  facts.vendor.clear();
  EXPECT_EQ(BuildVaDevice(IntelGpu(), facts).Attribute("vaDriver"), nullptr);
}

TEST(DeviceBuilder, ADeviceStaysWithinTheApisLimitOfAttributesAndCapacities) {
  const Device device = BuildVaDevice(IntelGpu(), DecodesH264());
  EXPECT_LE(device.attributes.size() + device.capacity.size(), kMaxAttributesAndCapacities);
}

TEST(DeviceBuilder, AttributeNamesAreUniqueAndWithinTheApisLengthLimit) {
  const Device device = BuildVaDevice(IntelGpu(), DecodesH264());
  std::set<std::string> seen;
  for (const auto& [name, value] : device.attributes) {
    EXPECT_TRUE(seen.insert(name).second) << name;
    const std::string identifier =
        name.substr(name.find('/') == std::string::npos ? 0 : name.find('/') + 1);
    EXPECT_LE(identifier.size(), 32u) << name;
  }
}

}  // namespace
}  // namespace mc::probe
