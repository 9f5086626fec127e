#include "worker/probe_contract/probe_module.h"

namespace mc::worker {

std::optional<ProbeModule> FindProbeModule(std::string_view name) {
  for (const ProbeModule& module : kProbeModules) {
    if (module.name == name) return module;
  }
  return std::nullopt;
}

std::optional<ProbeModule> DefaultModuleFor(std::string_view api) {
  for (const ProbeModule& module : kProbeModules) {
    if (module.api == api && module.pci_vendor.empty()) return module;
  }
  return std::nullopt;
}

std::string_view VendorWord(std::string_view pci_vendor) {
  if (pci_vendor == "10de") return "nvidia";
  if (pci_vendor == "8086") return "intel";
  if (pci_vendor == "1002") return "amd";
  return "unknown";
}

}  // namespace mc::worker
