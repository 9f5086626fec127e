// Discovery of render nodes from sysfs: /sys/class/drm/renderD* and the device each one
// belongs to. The roots are parameters so that tests can lay out a machine of their own
// in a temporary directory; nothing else differs between a test and a real node.
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

// ListRenderNodes gives the render nodes under <sysfs>/class/drm, such as "renderD128",
// in the order of their minor numbers. It fails only when that directory cannot be read.
Result<std::vector<std::string>> ListRenderNodes(const DiscoveryRoots& roots);

// DescribeRenderNode reads what sysfs says about one render node (a name such as
// "renderD128"). It never fails: what it cannot read it names in Gpu::problems.
Gpu DescribeRenderNode(const DiscoveryRoots& roots, const std::string& node, PciNames& names);

// RenderNodeForPath maps a path given by a user, such as "/dev/dri/renderD129", to the
// sysfs name of its node; it is the path's last component.
std::string RenderNodeForPath(const std::string& path);

}  // namespace mc::probe
