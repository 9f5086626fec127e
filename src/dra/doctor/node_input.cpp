#include "dra/doctor/node_input.h"

#include "probe/gpu/nvidia_discovery.h"

namespace mc::doctor {

bool IsNvidia(const DeviceReport& report) {
  return report.gpu.vendor_id == kNvidiaVendorId || report.nvidia_facts.has_value() ||
         report.gpu.kernel_driver == "nvidia";
}

std::string WhereIs(const DeviceReport& report) {
  if (report.gpu.render_node.empty()) return report.gpu.pci_address;
  return RenderNodeForPath(report.gpu.render_node);
}

}  // namespace mc::doctor
