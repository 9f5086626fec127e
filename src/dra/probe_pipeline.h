// The one pipeline from the machine to its devices: discover the GPUs, query each driver in
// a child, apply the capability table, build the devices. The probe prints its result and
// the agent publishes it; neither holds a second copy of this wiring.
//
// A GPU is asked through one API: NVIDIA's own (CUDA, NVDEC, NVENC) for an NVIDIA GPU, even
// when nvidia-drm gave it a render node, and VA-API for every other render node. So one GPU
// is one device (docs/nvidia.md says why NVIDIA's answer is the one kept).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dra/device.h"
#include "facts/nvidia_facts.h"
#include "facts/va_facts.h"
#include "gpu/gpu.h"
#include "gpu/render_node_discovery.h"
#include "query/query_command.h"

namespace mc {

struct ProbeRequest {
  DiscoveryRoots roots;
  // Render node paths to probe, such as "/dev/dri/renderD128"; empty means every render
  // node that sysfs lists and every NVIDIA GPU on the PCI bus.
  std::vector<std::string> render_nodes;
  QueryCommand query;
  // Run the session-slot test on each NVIDIA GPU (seed §5.3 step 4).
  bool measure_sessions = false;
};

// DeviceReport is everything known of one GPU: who it is, the device built for it, and in
// words what its driver said or why it could not say.
struct DeviceReport {
  Gpu gpu;
  Device device;
  // How the driver names itself: the VA vendor string, or the NVIDIA GPU and driver.
  std::string driver;
  // Why the query failed; absent when it succeeded.
  std::optional<std::string> failure;
  // What the driver stated, for readers that need more than the device publishes (the
  // worker reads the largest picture sizes); the one of the API that answered, absent when
  // the query failed.
  std::optional<VaFacts> va_facts;
  std::optional<NvidiaFacts> nvidia_facts;
  // What else the log should say: calls that failed for one part of the answer, sysfs
  // files that could not be read, disagreements with the seed's generation tables.
  std::vector<std::string> warnings;
};

struct ProbeResult {
  std::vector<DeviceReport> reports;
  // Where discovery looked, for a machine on which it found nothing.
  std::string searched;
  // Why discovery could not look, when it could not.
  std::vector<std::string> discovery_errors;
};

ProbeResult ProbeGpus(const ProbeRequest& request);

// LogLines gives the log's lines for one report: the seed's one line with the result or
// the failure, then one line for each warning.
std::vector<std::string> LogLines(const DeviceReport& report);

}  // namespace mc
