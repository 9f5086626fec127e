#include "cli/probe_command.h"

#include <iostream>

#include "cli/probe_table.h"
#include "probe/devices/device_json.h"

namespace mc {

int RunProbe(const ProbeOptions& options) {
  const probe::ProbeResult result = probe::ProbeGpus(options.request);
  for (const probe::DeviceReport& report : result.reports) {
    for (const std::string& line : probe::LogLines(report)) std::cerr << line << "\n";
  }
  std::vector<probe::Device> devices;
  for (const probe::DeviceReport& report : result.reports) devices.push_back(report.device);

  if (devices.empty()) {
    std::string why;
    for (const std::string& error : result.discovery_errors) why += " (" + error + ")";
    std::cerr
        << "probe: found no GPU in " << result.searched << why
        << "; to see a recorded GPU, run tests/fakeva/probe-dump tests/fakeva/dumps/<dump>.txt\n";
  }
  switch (options.output) {
    case ProbeOutput::kJson:
      std::cout << probe::DevicesToJson(devices);
      break;
    case ProbeOutput::kYaml:
      std::cout << probe::DevicesToYaml(devices);
      break;
    case ProbeOutput::kTable:
      if (!devices.empty()) std::cout << ProbeTable(result.reports);
      break;
    case ProbeOutput::kWide:
      if (!devices.empty()) std::cout << ProbeWideTable(result.reports);
      break;
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace mc
