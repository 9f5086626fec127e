#include "dra/agent/agent_metrics.h"

#include <sstream>

#include "common/base/text.h"

namespace mc::dra {
namespace {

void Family(std::ostringstream& out, const char* name, const char* help) {
  out << "# HELP " << name << " " << help << "\n# TYPE " << name << " gauge\n";
}

}  // namespace

std::string AgentMetricsText(const AgentMetrics& metrics) {
  const std::string node = "node=\"" + PrometheusLabelValue(metrics.node) + "\"";
  std::ostringstream out;
  Family(out, "mc_agent_devices", "Devices the agent found and queried on its node.");
  out << "mc_agent_devices{" << node << "} " << metrics.devices.size() << "\n";
  Family(out, "mc_agent_device_query_ok",
         "1 when the device's driver query succeeded; 0 when it failed and the device is "
         "published with every capability false.");
  for (const auto& [device, health] : metrics.devices) {
    out << "mc_agent_device_query_ok{" << node << ",device=\"" << PrometheusLabelValue(device)
        << "\"} " << (health.healthy ? 1 : 0) << "\n";
  }
  Family(out, "mc_agent_slices_published",
         "1 when the node's ResourceSlices hold what the last queries found.");
  out << "mc_agent_slices_published{" << node << "} " << (metrics.slices_published ? 1 : 0) << "\n";
  Family(out, "mc_agent_kubelet_plugin_registered",
         "1 when the kubelet has accepted the DRA plugin's registration.");
  out << "mc_agent_kubelet_plugin_registered{" << node << "} "
      << (metrics.plugin_registered ? 1 : 0) << "\n";
  return out.str();
}

}  // namespace mc::dra
