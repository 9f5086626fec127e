#include "worker/probe_contract/probe_contract.h"

#include <algorithm>
#include <variant>

#include "common/base/text.h"
#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"
#include "probe/gpu/gpu_selector.h"
#include "worker/probe_contract/nvidia_advice.h"
#include "worker/probe_contract/probe_module.h"

namespace mc::worker {
namespace {

std::string TextAttribute(const probe::Device& device, const char* name) {
  const probe::AttributeValue* value = device.Attribute(name);
  return value && std::holds_alternative<std::string>(*value) ? std::get<std::string>(*value)
                                                              : std::string();
}

ContractDevice DescribeDevice(const probe::DeviceReport& report) {
  ContractDevice device;
  device.name = report.device.name;
  device.pci_address = report.gpu.pci_address;
  device.render_node = report.gpu.render_node;
  const std::string pci_vendor = TextAttribute(report.device, "vendor");
  device.vendor = std::string(VendorWord(pci_vendor.empty() ? report.gpu.vendor_id : pci_vendor));
  device.model = TextAttribute(report.device, "name");
  device.driver = report.driver;
  device.driver_version = TextAttribute(report.device, "driverVersion");
  device.kernel_driver = report.gpu.kernel_driver;
  if (!report.gpu.vendor_id.empty() && !report.gpu.product_id.empty())
    device.pci_ids = report.gpu.vendor_id + ":" + report.gpu.product_id;
  device.subsystem_ids = report.gpu.subsystem_ids;
  return device;
}

// The NVENC codec name of each encode key, in kCapabilityKeys' order. Empty for the others.
constexpr std::array<std::string_view, kCapabilityKeys.size()> kNvencCodecOfKey{"H264", "HEVC",
                                                                                "AV1"};

// VaRuleOf gives the VA-API rule of a published attribute, or nullptr.
const probe::VaRule* VaRuleOf(std::string_view attribute) {
  for (const probe::Capability& capability : probe::kCapabilities) {
    if (capability.name == attribute) return &capability.va;
  }
  return nullptr;
}

// SetLargestEncodeSize gives the contract the largest picture any encoder it claims takes:
// - NVENC's NV_ENC_CAPS_WIDTH_MAX and NV_ENC_CAPS_HEIGHT_MAX;
// - VA-API's VAConfigAttribMaxPictureWidth and VAConfigAttribMaxPictureHeight, of the profile
//   and entry point that made the encode attribute true.
void SetLargestEncodeSize(const probe::DeviceReport& report, ProbeContract& contract) {
  std::int64_t width = 0;
  std::int64_t height = 0;
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    const CapabilityKey& key = kCapabilityKeys[i];
    if (!key.encodes || !contract.capabilities[i]) continue;
    if (report.nvidia_facts) {
      for (const probe::NvEncoderCodec& codec : report.nvidia_facts->encoder.codecs) {
        if (codec.codec != kNvencCodecOfKey[i]) continue;
        width = std::max<std::int64_t>(width, codec.max_width);
        height = std::max<std::int64_t>(height, codec.max_height);
      }
    }
    if (!report.va_facts) continue;
    for (std::size_t j = 0; j < key.attribute_count; ++j) {
      const probe::VaRule* rule = VaRuleOf(key.attributes[j]);
      if (!rule || rule->kind != probe::VaRule::Kind::kConfig) continue;
      for (const probe::VaConfig& config : report.va_facts->configs) {
        const bool listed =
            std::find(rule->entrypoints.begin(), rule->entrypoints.begin() + rule->entrypoint_count,
                      config.entrypoint) != rule->entrypoints.begin() + rule->entrypoint_count;
        if (config.profile != rule->profile || !listed) continue;
        width = std::max<std::int64_t>(width, config.max_width);
        height = std::max<std::int64_t>(height, config.max_height);
      }
    }
  }
  if (width > 0) contract.max_width = width;
  if (height > 0) contract.max_height = height;
}

std::string TrueAttributes(const probe::Device& device) {
  std::string list;
  for (const CapabilityKey& key : kCapabilityKeys) {
    for (std::size_t j = 0; j < key.attribute_count; ++j) {
      const probe::AttributeValue* value = device.Attribute(std::string(key.attributes[j]));
      if (!value || !std::holds_alternative<bool>(*value) || !std::get<bool>(*value)) continue;
      if (list.find(std::string(key.attributes[j])) != std::string::npos) continue;
      list += (list.empty() ? "" : ", ") + std::string(key.attributes[j]);
    }
  }
  return list.empty() ? "no capability" : list;
}

ProbeContract Refuse(ProbeContract contract, std::string reason) {
  contract.ok = false;
  contract.reason = std::move(reason);
  return contract;
}

std::string KnownDevices(const probe::ProbeResult& probe) {
  if (probe.reports.empty()) {
    std::string text = "found no GPU in " + probe.searched;
    for (const std::string& error : probe.discovery_errors) text += " (" + error + ")";
    return text;
  }
  std::string text = "the GPUs here are";
  for (std::size_t i = 0; i < probe.reports.size(); ++i) {
    const probe::DeviceReport& report = probe.reports[i];
    text += (i == 0 ? " " : ", ") + report.device.name + " (" + report.gpu.pci_address + ")";
  }
  return text;
}

// EncoderAbsence says, as its driver put it, why a device encodes nothing.
std::string EncoderAbsence(const probe::DeviceReport& report) {
  if (report.nvidia_facts && !report.nvidia_facts->encoder.available &&
      !report.nvidia_facts->encoder.unavailable_reason.empty()) {
    const std::string& said = report.nvidia_facts->encoder.unavailable_reason;
    const std::string advice = NvencAdvice(said);
    return "NVENC: " + said + (advice.empty() ? "" : "; " + advice);
  }
  if (report.nvidia_facts) return "NVENC lists no H.264, HEVC or AV1 encoder this worker can use";
  return "the VA-API driver lists no H.264, HEVC or AV1 encode entry point";
}

}  // namespace

ProbeContract ContractFor(const probe::ProbeResult& probe, const ContractRequest& request) {
  ProbeContract contract;
  contract.probe_module = request.module;
  std::optional<ProbeModule> asked;
  if (!request.module.empty()) {
    asked = FindProbeModule(request.module);
    if (!asked) {
      std::string names;
      for (const ProbeModule& module : kProbeModules)
        names += (names.empty() ? "" : ", ") + std::string(module.name);
      return Refuse(contract,
                    "unknown probe module \"" + request.module + "\"; the modules are " + names);
    }
  }
  if (request.gpu.empty())
    return Refuse(contract, "no GPU was named; name one by device name or PCI address");

  std::vector<probe::Gpu> gpus;
  for (const probe::DeviceReport& report : probe.reports) gpus.push_back(report.gpu);
  const std::optional<std::size_t> place = probe::SelectGpu(gpus, request.gpu);
  if (!place) {
    return Refuse(contract,
                  "no GPU \"" + request.gpu + "\" on this machine: " + KnownDevices(probe));
  }
  const probe::DeviceReport& report = probe.reports[*place];
  contract.devices.push_back(DescribeDevice(report));
  const std::string api = TextAttribute(report.device, "api");
  if (!asked) {
    asked = DefaultModuleFor(api);
    if (!asked)
      return Refuse(contract, report.device.name + " is asked through api \"" + api +
                                  "\", which no probe module reads");
    contract.probe_module = std::string(asked->name);
  }
  if (asked->api != api) {
    return Refuse(contract, report.device.name + " is asked through " + api + ", not through the " +
                                std::string(asked->api) + " that probe module " +
                                contract.probe_module + " reads");
  }
  const std::string pci_vendor = TextAttribute(report.device, "vendor");
  if (!asked->pci_vendor.empty() && pci_vendor != asked->pci_vendor) {
    return Refuse(contract, "probe module " + contract.probe_module + " is for PCI vendor " +
                                std::string(asked->pci_vendor) + ", and " + report.device.name +
                                " is of vendor " + (pci_vendor.empty() ? "unknown" : pci_vendor));
  }
  if (report.failure) {
    return Refuse(contract,
                  "the driver query of " + report.device.name + " failed: " + *report.failure);
  }

  contract.capabilities = CapabilityFlagsOf(report.device);
  for (const auto& [name, capacity] : report.device.capacity) {
    if (name == probe::kEncodeSessionsCapacity) contract.max_sessions = capacity.value;
  }
  SetLargestEncodeSize(report, contract);
  contract.evidence = report.device.name + " (" + report.driver + ") through " + api + " states " +
                      TrueAttributes(report.device);
  if (contract.max_sessions)
    contract.evidence += "; encodeSessions " + std::to_string(*contract.max_sessions);
  if (!contract.max_width) contract.evidence += "; the driver states no largest encode size";
  if (!EncodesAnything(contract.capabilities)) {
    return Refuse(contract, report.device.name + " encodes nothing: " + EncoderAbsence(report));
  }
  contract.ok = true;
  return contract;
}

}  // namespace mc::worker
