#include "support/fake_sysfs.h"

namespace mc::testing {

void AddFakePciGpu(const TempDir& dir, const FakePciGpu& gpu) {
  const std::string device_dir = "sys/devices/pci0000:00/" + gpu.address;
  if (!gpu.vendor.empty()) dir.Write(device_dir + "/vendor", gpu.vendor + "\n");
  if (!gpu.device.empty()) dir.Write(device_dir + "/device", gpu.device + "\n");
  dir.Write("sys/bus/pci/drivers/" + gpu.driver + "/.keep", "");
  dir.Link(device_dir + "/subsystem", "../../../bus/pci");
  if (!gpu.driver.empty())
    dir.Link(device_dir + "/driver", "../../../bus/pci/drivers/" + gpu.driver);
  dir.Link(device_dir + "/drm/" + gpu.node + "/device", "../../../" + gpu.address);
  dir.Link("sys/class/drm/" + gpu.node,
           "../../devices/pci0000:00/" + gpu.address + "/drm/" + gpu.node);
  dir.Write("dev/dri/" + gpu.node, "");
}

std::vector<std::string> FakeMachineFlags(const std::filesystem::path& machine) {
  return {"--sysfs-root", (machine / "sys").string(), "--dev-root", (machine / "dev").string()};
}

std::vector<std::string> FakeNvidiaMachineFlags(const std::filesystem::path& machine) {
  std::vector<std::string> flags = FakeMachineFlags(machine);
  flags.insert(flags.end(), {"--nvml-library", (machine / "lib/libnvidia-ml.so.1").string()});
  return flags;
}

}  // namespace mc::testing
