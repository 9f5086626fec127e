#include "probe/gpu/render_node_discovery.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "common/base/text.h"
#include "probe/gpu/pci_address.h"
#include "probe/gpu/sysfs_files.h"

namespace mc::probe {
namespace fs = std::filesystem;
namespace {

// RenderMinor gives the number of "renderD<n>". -1 when the name is no render node.
int RenderMinor(const std::string& name) {
  constexpr std::string_view kPrefix = "renderD";
  if (!name.starts_with(kPrefix) || name.size() == kPrefix.size()) return -1;
  return ParseInteger<int>(std::string_view(name).substr(kPrefix.size())).value_or(-1);
}

}  // namespace

Result<std::vector<std::string>> ListRenderNodes(const DiscoveryRoots& roots) {
  const fs::path directory = fs::path(roots.sysfs) / "class" / "drm";
  std::error_code error;
  fs::directory_iterator it(directory, error);
  if (error) return Error{"cannot list " + directory.string() + ": " + error.message()};
  std::vector<std::string> nodes;
  for (const fs::directory_entry& entry : it) {
    std::string name = entry.path().filename().string();
    if (RenderMinor(name) >= 0) nodes.push_back(std::move(name));
  }
  std::sort(nodes.begin(), nodes.end(), [](const std::string& a, const std::string& b) {
    return RenderMinor(a) < RenderMinor(b);
  });
  return nodes;
}

Gpu DescribeRenderNode(const DiscoveryRoots& roots, const std::string& node, PciNames& names) {
  Gpu gpu;
  gpu.render_node = (fs::path(roots.dev) / "dri" / node).string();
  gpu.device_name = AsciiLower(node);

  const fs::path device_link = fs::path(roots.sysfs) / "class" / "drm" / node / "device";
  std::error_code error;
  const fs::path device = fs::canonical(device_link, error);
  if (error) {
    gpu.problems.push_back("cannot resolve " + device_link.string() + ": " + error.message());
    return gpu;
  }

  gpu.bus = LinkTargetName(device / "subsystem");
  if (gpu.bus.empty()) gpu.problems.push_back("cannot read " + (device / "subsystem").string());
  gpu.kernel_driver = LinkTargetName(device / "driver");
  if (gpu.kernel_driver.empty()) {
    gpu.problems.push_back("no kernel driver is bound (" + (device / "driver").string() + ")");
  }
  if (gpu.bus != "pci") return gpu;

  if (auto address = NormalisePciAddress(device.filename().string())) {
    gpu.pci_address = *address;
    gpu.device_name = DeviceNameForPciAddress(*address);
  } else {
    gpu.problems.push_back("the PCI device " + device.string() + " has no PCI address as its name");
  }
  std::string problem;
  gpu.vendor_id = ReadSysfsHex(device / "vendor", 4, problem);
  if (!problem.empty()) gpu.problems.push_back(std::exchange(problem, {}));
  gpu.product_id = ReadSysfsHex(device / "device", 4, problem);
  if (!problem.empty()) gpu.problems.push_back(std::exchange(problem, {}));
  gpu.subsystem_ids = ReadSubsystemIds(device, problem);
  if (!problem.empty()) gpu.problems.push_back(std::exchange(problem, {}));
  if (!gpu.vendor_id.empty() && !gpu.product_id.empty()) {
    gpu.product_name = names.DeviceName(std::stoul(gpu.vendor_id, nullptr, 16),
                                        std::stoul(gpu.product_id, nullptr, 16));
  }
  return gpu;
}

std::string RenderNodeForPath(const std::string& path) {
  return fs::path(path).filename().string();
}

}  // namespace mc::probe
