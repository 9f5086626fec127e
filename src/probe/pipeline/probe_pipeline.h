// The one pipeline from the machine to its devices:
//  - discover the GPUs;
//  - query each driver in a child;
//  - apply the capability table;
//  - build the devices.
// The probe prints its result and the agent publishes it. Neither holds a second copy of this
// wiring.
//
// A GPU is asked through one API:
//  - NVIDIA's own (CUDA, NVDEC, NVENC) for an NVIDIA GPU, even when nvidia-drm gave it a
//    render node;
//  - VA-API for every other render node.
// So one GPU is one device. docs/probe/nvidia.md says why NVIDIA's answer is the one kept.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/devices/device.h"
#include "probe/facts/nvidia_facts.h"
#include "probe/facts/va_facts.h"
#include "probe/gpu/gpu.h"
#include "probe/gpu/render_node_discovery.h"
#include "probe/query/query_command.h"

namespace mc::probe {

// NamedPciDevice is a GPU picked by its PCI address. It is published under a name given by
// someone else. For example, liken names its render nodes; the media device takes that name.
struct NamedPciDevice {
  std::string pci_address;
  std::string device_name;
};

struct ProbeRequest {
  DiscoveryRoots roots;
  // Render node paths to probe, such as "/dev/dri/renderD128". With neither these nor
  // named_devices, it probes every render node sysfs lists and every NVIDIA GPU on the bus.
  std::vector<std::string> render_nodes;
  // GPUs to probe by PCI address, each under its given name. One of which sysfs shows no
  // render node is still reported, as a failed query that says so.
  std::vector<NamedPciDevice> named_devices;
  QueryCommand query;
  // Run the session-slot test on each NVIDIA GPU: open encode sessions until one is refused.
  bool measure_sessions = false;
  // The one GPU to query, named as SelectGpu reads names; empty, every GPU found. The others
  // are reported unqueried. A worker never opens a context or an encode session on a GPU
  // another worker owns. There it would hold one of a consumer board's capped sessions.
  std::string only_gpu;
};

// DeviceReport is everything known of one GPU:
//  - who it is;
//  - the device built for it;
//  - in words, what its driver said or why it could not say.
struct DeviceReport {
  Gpu gpu;
  Device device;
  // How the driver names itself: the VA vendor string, or the NVIDIA GPU and driver.
  std::string driver;
  // Whether the driver was asked at all (ProbeRequest::only_gpu leaves the others unasked).
  bool queried = true;
  // Why the query failed, or why it was not made; absent when it succeeded.
  std::optional<std::string> failure;
  // What the driver stated, when the query succeeded: one of the two, by the GPU's API.
  std::optional<VaFacts> va_facts;
  std::optional<NvidiaFacts> nvidia_facts;
  // What else the log should say:
  //  - calls that failed for one part of the answer;
  //  - sysfs files that could not be read;
  //  - disagreements with the NVIDIA generation tables (docs/probe/nvidia.md).
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

// LogLines gives the log's lines for one report: one line with every capability or the
// failure (docs/dra/agent.md shows it), then one line for each warning.
std::vector<std::string> LogLines(const DeviceReport& report);

}  // namespace mc::probe
