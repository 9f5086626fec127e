// What the node checks read:
//  - where this machine's sysfs, /dev and /proc are (tests move them to a fake machine);
//  - how libva is told where its drivers are;
//  - what the project's probe found from each GPU's driver (src/probe/pipeline).
// So the doctor never asks a driver a second time, in a way of its own.
#pragma once

#include <optional>
#include <string>

#include "common/base/result.h"
#include "probe/gpu/render_node_discovery.h"
#include "probe/pipeline/probe_pipeline.h"

namespace mc::dra {

struct NodeRoots {
  probe::DiscoveryRoots discovery;
  std::string proc = "/proc";

  // debugfs is mounted under sysfs.
  // So a fake machine's sysfs holds its debugfs too.
  std::string Debugfs() const { return discovery.sysfs + "/kernel/debug"; }
};

// How libva finds its driver:
//  - its environment variables, absent when unset;
//  - where it looks when they are unset.
struct LibvaSettings {
  std::optional<std::string> drivers_path;  // LIBVA_DRIVERS_PATH, directories joined by ':'
  std::optional<std::string> driver_name;   // LIBVA_DRIVER_NAME
  std::string default_dir;                  // libva's own, such as /usr/lib/x86_64-linux-gnu/dri
};

struct NodeInput {
  NodeRoots roots;
  LibvaSettings libva;
  // ProbeGpus's result for every GPU of the machine.
  probe::ProbeResult probe;
  // What NVML said when asked in a child of its own (nvml_child.h).
  // That is the driver's version, or why not.
  // Absent on a machine with no NVIDIA GPU, where nobody asks.
  std::optional<Result<std::string>> nvml_driver_version;
  // Whether this machine is a Kubernetes node the doctor was pointed at (a kubeconfig, or a pod).
  // Remedies that name a cluster's objects (a claim, a node label) are given only then.
  bool cluster = false;
};

// IsNvidia says whether a report is of an NVIDIA GPU.
// NVIDIA's APIs answer for those.
bool IsNvidia(const probe::DeviceReport& report);

// WhereIs gives the report's render node, such as "renderD128".
// It gives the PCI address when there is no render node.
std::string WhereIs(const probe::DeviceReport& report);

}  // namespace mc::dra
