#include "dra/device_builder.h"

#include "base/utf8.h"
#include "capabilities/capability_table.h"
#include "capabilities/va_rules.h"

namespace mc {
namespace {

// PublishableString makes driver or database text fit the API: valid UTF-8, at most 64
// bytes.
std::string PublishableString(const std::string& text) {
  return TruncateUtf8(ValidUtf8(text), kMaxAttributeStringBytes);
}

void AddStringIfKnown(Device& device, const char* name, const std::string& value) {
  if (!value.empty()) device.attributes.emplace_back(name, PublishableString(value));
}

}  // namespace

Device BuildVaDevice(const Gpu& gpu, const Result<VaFacts>& facts) {
  Device device;
  device.name = gpu.device_name;
  const CapabilityValues values = facts ? EvaluateVaFacts(*facts) : CapabilityValues{};
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    device.attributes.emplace_back(std::string(kCapabilities[i].name), values[i]);
  }
  device.attributes.emplace_back("api", std::string("vaapi"));
  if (facts) AddStringIfKnown(device, "vaDriver", facts->vendor);
  AddStringIfKnown(device, kPciBusIdAttribute, gpu.pci_address);
  AddStringIfKnown(device, "address", gpu.pci_address);
  AddStringIfKnown(device, "driver", gpu.kernel_driver);
  AddStringIfKnown(device, "vendor", gpu.vendor_id);
  AddStringIfKnown(device, "product", gpu.product_id);
  AddStringIfKnown(device, "name", gpu.product_name);
  return device;
}

}  // namespace mc
