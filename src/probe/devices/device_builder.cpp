#include "probe/devices/device_builder.h"

#include "common/base/utf8.h"
#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/capabilities/nvidia_rules.h"
#include "probe/capabilities/va_rules.h"

namespace mc::probe {
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
void AddCapabilities(Device& device, const CapabilityValues& values) {
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    device.attributes.emplace_back(std::string(kCapabilities[i].name), values[i]);
  }
}

// AddIdentity publishes who the GPU is, the same way whichever API answered for it. So a
// selector or a pairing by pciBusID reads the same names on every device.
void AddIdentity(Device& device, const Gpu& gpu, const std::string& fallback_name = {}) {
  AddStringIfKnown(device, kPciBusIdAttribute, gpu.pci_address);
  AddStringIfKnown(device, "address", gpu.pci_address);
  AddStringIfKnown(device, "driver", gpu.kernel_driver);
  AddStringIfKnown(device, "vendor", gpu.vendor_id);
  AddStringIfKnown(device, "product", gpu.product_id);
  AddStringIfKnown(device, "name", gpu.product_name.empty() ? fallback_name : gpu.product_name);
}

}  // namespace

Device BuildVaDevice(const Gpu& gpu, const Result<VaFacts>& facts) {
  Device device;
  device.name = gpu.device_name;
  AddCapabilities(device, facts ? EvaluateVaFacts(*facts) : CapabilityValues{});
  device.attributes.emplace_back("api", std::string("vaapi"));
  if (facts) AddStringIfKnown(device, "vaDriver", facts->vendor);
  AddIdentity(device, gpu);
  return device;
}

Device BuildNvidiaDevice(const Gpu& gpu, const Result<NvidiaFacts>& facts,
                         std::size_t capped_gpus_on_node) {
  Device device;
  device.name = gpu.device_name;
  const CapabilityValues values = facts ? EvaluateNvidiaFacts(*facts) : CapabilityValues{};
  AddCapabilities(device, values);
  device.attributes.emplace_back("api", std::string("nvidia"));
  if (facts) AddStringIfKnown(device, "driverVersion", facts->driver_version);
  AddIdentity(device, gpu, facts ? facts->name : std::string());
  if (facts && CanEncode(values)) {
    const std::optional<int> cap =
        EncodeSessionCap(DriverBranch(facts->driver_version), BoardClassOf(facts->name));
    // A claim that only decodes names no sessions and must take none. Without a default of
    // 0, the API would give it every session. No encoder could then share the GPU with it.
    if (cap) {
      device.capacity.emplace_back(
          kEncodeSessionsCapacity,
          Capacity{ShareOfSystemCap(*cap, capped_gpus_on_node), /*default_request=*/0});
    }
  }
  return device;
}

}  // namespace mc::probe
