#include "dra/devices/device_builder.h"

#include "common/base/utf8.h"
#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/capabilities/nvidia_rules.h"
#include "probe/capabilities/va_rules.h"

namespace mc::dra {
namespace {

// PublishableString makes driver or database text fit the API: valid UTF-8, at most 64
// bytes.
std::string PublishableString(const std::string& text) {
  return TruncateUtf8(ValidUtf8(text), kMaxAttributeStringBytes);
}

void AddStringIfKnown(Device& device, const char* name, const std::string& value) {
  if (!value.empty()) device.attributes.emplace_back(name, PublishableString(value));
}

// AddCapabilities publishes every row of the capability table, in its order.
void AddCapabilities(Device& device, const probe::CapabilityValues& values) {
  for (std::size_t i = 0; i < probe::kCapabilityCount; ++i) {
    device.attributes.emplace_back(std::string(probe::kCapabilities[i].name), values[i]);
  }
}

// AddIdentity publishes who the GPU is, the same way whichever API answered for it, so that
// a selector or a pairing by pciBusID reads the same names on every device.
void AddIdentity(Device& device, const probe::Gpu& gpu, const std::string& fallback_name = {}) {
  AddStringIfKnown(device, kPciBusIdAttribute, gpu.pci_address);
  AddStringIfKnown(device, "address", gpu.pci_address);
  AddStringIfKnown(device, "driver", gpu.kernel_driver);
  AddStringIfKnown(device, "vendor", gpu.vendor_id);
  AddStringIfKnown(device, "product", gpu.product_id);
  AddStringIfKnown(device, "name", gpu.product_name.empty() ? fallback_name : gpu.product_name);
}

}  // namespace

Device BuildVaDevice(const probe::Gpu& gpu, const Result<probe::VaFacts>& facts) {
  Device device;
  device.name = gpu.device_name;
  AddCapabilities(device, facts ? probe::EvaluateVaFacts(*facts) : probe::CapabilityValues{});
  device.attributes.emplace_back("api", std::string("vaapi"));
  if (facts) AddStringIfKnown(device, "vaDriver", facts->vendor);
  AddIdentity(device, gpu);
  return device;
}

Device BuildNvidiaDevice(const probe::Gpu& gpu, const Result<probe::NvidiaFacts>& facts,
                         std::size_t capped_gpus_on_node) {
  Device device;
  device.name = gpu.device_name;
  const probe::CapabilityValues values =
      facts ? probe::EvaluateNvidiaFacts(*facts) : probe::CapabilityValues{};
  AddCapabilities(device, values);
  device.attributes.emplace_back("api", std::string("nvidia"));
  if (facts) AddStringIfKnown(device, "driverVersion", facts->driver_version);
  AddIdentity(device, gpu, facts ? facts->name : std::string());
  if (facts && probe::CanEncode(values)) {
    const std::optional<int> cap = probe::EncodeSessionCap(
        probe::DriverBranch(facts->driver_version), probe::BoardClassOf(facts->name));
    // A claim that only decodes names no sessions and must take none; without a default of
    // 0 the API would give it every session, and no encoder could share the GPU with it.
    if (cap) {
      device.capacity.emplace_back(
          probe::kEncodeSessionsCapacity,
          Capacity{probe::ShareOfSystemCap(*cap, capped_gpus_on_node), /*default_request=*/0});
    }
  }
  return device;
}

}  // namespace mc::dra
