#include "dra/doctor/node_input.h"

#include "probe/gpu/nvidia_discovery.h"

namespace mc::dra {

bool IsNvidia(const probe::DeviceReport& report) {
  return report.gpu.vendor_id == probe::kNvidiaVendorId || report.nvidia_facts.has_value() ||
         report.gpu.kernel_driver == "nvidia";
}

std::string WhereIs(const probe::DeviceReport& report) {
  if (report.gpu.render_node.empty()) return report.gpu.pci_address;
  return probe::RenderNodeForPath(report.gpu.render_node);
}

}  // namespace mc::dra
