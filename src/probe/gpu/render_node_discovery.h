// Discovery of render nodes from sysfs: /sys/class/drm/renderD* and each one's device. The roots
// are parameters. So tests can lay out a machine of their own in a temporary directory. Nothing
// else differs between a test and a real node.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "probe/gpu/gpu.h"
#include "probe/gpu/pci_names.h"

namespace mc::probe {

struct DiscoveryRoots {
  std::string sysfs = "/sys";
  std::string dev = "/dev";
};

// ListRenderNodes gives the render nodes under <sysfs>/class/drm, such as "renderD128". They come
// in order of their minor numbers. It fails only when that directory cannot be read.
Result<std::vector<std::string>> ListRenderNodes(const DiscoveryRoots& roots);

// DescribeRenderNode reads what sysfs says of one render node, named such as "renderD128". It never
// fails. It names what it cannot read in Gpu::problems.
Gpu DescribeRenderNode(const DiscoveryRoots& roots, const std::string& node, PciNames& names);

// RenderNodeForPath maps a user's path, such as "/dev/dri/renderD129", to its node's sysfs name.
// That is the path's last component.
std::string RenderNodeForPath(const std::string& path);

}  // namespace mc::probe
