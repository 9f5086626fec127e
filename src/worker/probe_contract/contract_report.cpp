#include "worker/probe_contract/contract_report.h"

#include <algorithm>
#include <vector>

namespace mc::worker {

const probe::DeviceReport* ReportOf(const probe::ProbeResult& probe,
                                    const ProbeContract& contract) {
  if (contract.devices.empty()) return nullptr;
  for (const probe::DeviceReport& report : probe.reports) {
    if (report.device.name == contract.devices[0].name) return &report;
  }
  return nullptr;
}

int CudaIndexOf(const probe::ProbeResult& probe, const std::string& pci_address) {
  std::vector<std::string> addresses;
  for (const probe::DeviceReport& report : probe.reports) {
    if (report.nvidia_facts) addresses.push_back(report.gpu.pci_address);
  }
  std::sort(addresses.begin(), addresses.end());
  const auto found = std::find(addresses.begin(), addresses.end(), pci_address);
  return found == addresses.end() ? 0 : static_cast<int>(found - addresses.begin());
}

}  // namespace mc::worker
