// The one pipeline from the machine to its devices: discover the render nodes, query each
// driver in a child, apply the capability table, build the devices. The probe prints its
// result and the agent publishes it; neither holds a second copy of this wiring.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "dra/device.h"
#include "facts/va_facts.h"
#include "gpu/gpu.h"
#include "gpu/render_node_discovery.h"
#include "query/va_query_runner.h"

namespace mc {

struct ProbeRequest {
  DiscoveryRoots roots;
  // Render node paths to probe, such as "/dev/dri/renderD128"; empty means every render
  // node that sysfs lists.
  std::vector<std::string> render_nodes;
  QueryCommand query;
};

// DeviceReport is everything known of one render node: who the GPU is, what its driver
// said or why it could not, and the device built from the two.
struct DeviceReport {
  Gpu gpu;
  Result<VaFacts> facts;
  Device device;
};

struct ProbeResult {
  std::vector<DeviceReport> reports;
  // Where discovery looked, for a machine on which it found nothing.
  std::string searched;
  // Why discovery could not look, when it could not; the reports are then empty.
  std::string discovery_error;
};

ProbeResult ProbeRenderNodes(const ProbeRequest& request);

// LogLines gives the log's lines for one report: the seed's one line with the result or
// the failure, then a line for each warning the query or discovery raised.
std::vector<std::string> LogLines(const DeviceReport& report);

}  // namespace mc
