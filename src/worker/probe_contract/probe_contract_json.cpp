#include "worker/probe_contract/probe_contract_json.h"

#include <sstream>

namespace mc::worker {
namespace {

nlohmann::ordered_json OptionalNumber(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json CapabilitiesJson(const CapabilityFlags& flags) {
  nlohmann::ordered_json capabilities = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    capabilities[std::string(kCapabilityKeys[i].key)] = flags[i] ? 1 : 0;
  }
  return capabilities;
}

nlohmann::ordered_json ContractJson(const ProbeContract& contract) {
  nlohmann::ordered_json json;
  json["ok"] = contract.ok;
  json["probe_module"] = contract.probe_module;
  json["capabilities"] = CapabilitiesJson(contract.capabilities);
  json["max_sessions"] = OptionalNumber(contract.max_sessions);
  json["max_width"] = OptionalNumber(contract.max_width);
  json["max_height"] = OptionalNumber(contract.max_height);
  json["devices"] = nlohmann::ordered_json::array();
  for (const ContractDevice& device : contract.devices) {
    json["devices"].push_back({{"name", device.name},
                               {"pci_address", device.pci_address},
                               {"render_node", device.render_node},
                               {"vendor", device.vendor},
                               {"model", device.model},
                               {"driver", device.driver},
                               {"kernel_driver", device.kernel_driver}});
  }
  json["evidence"] = contract.evidence;
  json["reason"] =
      contract.reason ? nlohmann::ordered_json(*contract.reason) : nlohmann::ordered_json(nullptr);
  return json;
}

std::string ContractTable(const ProbeContract& contract) {
  std::ostringstream out;
  out << "ok:           " << (contract.ok ? "yes" : "no") << "\n";
  if (contract.reason) out << "reason:       " << *contract.reason << "\n";
  out << "probe module: " << (contract.probe_module.empty() ? "-" : contract.probe_module) << "\n";
  for (const ContractDevice& device : contract.devices) {
    out << "device:       " << device.name << " (" << device.pci_address << ", " << device.vendor
        << ", " << (device.model.empty() ? "unnamed" : device.model) << ")\n";
  }
  out << "capabilities:";
  for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
    out << " " << kCapabilityKeys[i].key << "=" << (contract.capabilities[i] ? 1 : 0);
  }
  out << "\n";
  auto number = [](const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : std::string("not stated");
  };
  out << "max sessions: " << number(contract.max_sessions) << "\n";
  out << "max size:     " << number(contract.max_width) << " x " << number(contract.max_height)
      << "\n";
  if (!contract.evidence.empty()) out << "evidence:     " << contract.evidence << "\n";
  return out.str();
}

}  // namespace mc::worker
