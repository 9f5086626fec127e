#include "probe/gpu/nvidia_discovery.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "probe/gpu/pci_address.h"
#include "probe/gpu/sysfs_files.h"

namespace mc::probe {
namespace fs = std::filesystem;
namespace {

// RenderNodeOf finds the device's render node from nvidia-drm, if any.
std::string RenderNodeOf(const fs::path& device, const DiscoveryRoots& roots) {
  std::error_code error;
  std::vector<std::string> nodes;
  for (fs::directory_iterator it(device / "drm", error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("renderD")) nodes.push_back(name);
  }
  if (nodes.empty()) return {};
  std::sort(nodes.begin(), nodes.end());
  return (fs::path(roots.dev) / "dri" / nodes.front()).string();
}

// DescribeNvidiaDevice fills a Gpu for the PCI device at sysfs directory `device`.
Gpu DescribeNvidiaDevice(const fs::path& device, const std::string& address,
                         const std::string& product, const DiscoveryRoots& roots, PciNames& names) {
  Gpu gpu;
  gpu.bus = "pci";
  gpu.pci_address = address;
  gpu.device_name = DeviceNameForPciAddress(address);
  gpu.vendor_id = kNvidiaVendorId;
  gpu.product_id = product;
  gpu.kernel_driver = LinkTargetName(device / "driver");
  if (gpu.kernel_driver.empty()) {
    gpu.problems.push_back("no kernel driver is bound (" + (device / "driver").string() + ")");
  }
  if (!product.empty()) {
    gpu.product_name =
        names.DeviceName(0x10de, static_cast<unsigned>(std::stoul(product, nullptr, 16)));
  }
  gpu.render_node = RenderNodeOf(device, roots);
  std::string problem;
  gpu.subsystem_ids = ReadSubsystemIds(device, problem);
  if (!problem.empty()) gpu.problems.push_back(problem);
  return gpu;
}

}  // namespace

Result<std::vector<Gpu>> DiscoverNvidiaGpus(const DiscoveryRoots& roots, PciNames& names) {
  const fs::path bus = fs::path(roots.sysfs) / "bus" / "pci" / "devices";
  std::error_code error;
  if (!fs::exists(bus, error)) return std::vector<Gpu>{};
  fs::directory_iterator it(bus, error);
  if (error) return Error{"cannot list " + bus.string() + ": " + error.message()};

  std::vector<std::pair<std::string, fs::path>> candidates;
  for (const fs::directory_entry& entry : it) {
    const std::optional<std::string> address =
        NormalisePciAddress(entry.path().filename().string());
    if (address) candidates.emplace_back(*address, entry.path());
  }
  std::sort(candidates.begin(), candidates.end());

  std::vector<Gpu> gpus;
  for (const auto& [address, device] : candidates) {
    // A device with unreadable vendor or class is not known as an NVIDIA GPU. It is skipped, not
    // reported, like every other PCI device on the bus.
    std::string problem;
    if (ReadSysfsHex(device / "vendor", 4, problem) != kNvidiaVendorId) continue;
    const std::string device_class = ReadSysfsHex(device / "class", 6, problem);
    if (device_class.size() != 6 || !device_class.starts_with("03")) continue;
    const std::string product = ReadSysfsHex(device / "device", 4, problem);
    Gpu gpu = DescribeNvidiaDevice(device, address, product, roots, names);
    if (!problem.empty()) gpu.problems.push_back(problem);
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

}  // namespace mc::probe
