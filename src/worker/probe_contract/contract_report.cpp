#include "worker/probe_contract/contract_report.h"

#include <algorithm>
#include <vector>

#include "probe/facts/nvidia_facts.h"
#include "probe/gpu/nvidia_discovery.h"

namespace mc::worker {

const probe::DeviceReport* ReportOf(const probe::ProbeResult& probe,
                                    const ProbeContract& contract) {
  if (contract.devices.empty()) return nullptr;
  for (const probe::DeviceReport& report : probe.reports) {
    if (report.device.name == contract.devices[0].name) return &report;
  }
  return nullptr;
}

namespace {

// CudaCounts tells whether CUDA enumerates a report's GPU. That is an NVIDIA GPU whose query found
// it among CUDA's devices. It holds whether or not the query succeeded after that.
bool CudaCounts(const probe::DeviceReport& report) {
  if (report.nvidia_facts) return true;
  if (report.gpu.vendor_id != probe::kNvidiaVendorId) return false;
  return !report.failure || report.failure->find(probe::kNoCudaDeviceAt) == std::string::npos;
}

}  // namespace

int CudaIndexOf(const probe::ProbeResult& probe, const std::string& pci_address) {
  std::vector<std::string> addresses;
  for (const probe::DeviceReport& report : probe.reports) {
    if (report.gpu.pci_address == pci_address && report.nvidia_facts &&
        report.nvidia_facts->cuda_ordinal)
      return *report.nvidia_facts->cuda_ordinal;
    if (CudaCounts(report)) addresses.push_back(report.gpu.pci_address);
  }
  std::sort(addresses.begin(), addresses.end());
  const auto found = std::find(addresses.begin(), addresses.end(), pci_address);
  return found == addresses.end() ? 0 : static_cast<int>(found - addresses.begin());
}

}  // namespace mc::worker
