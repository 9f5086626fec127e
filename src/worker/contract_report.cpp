#include "worker/contract_report.h"

namespace mc::worker {

const DeviceReport* ReportOf(const ProbeResult& probe, const ProbeContract& contract) {
  if (contract.devices.empty()) return nullptr;
  for (const DeviceReport& report : probe.reports) {
    if (report.device.name == contract.devices[0].name) return &report;
  }
  return nullptr;
}

}  // namespace mc::worker
