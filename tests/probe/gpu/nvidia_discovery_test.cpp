#include "probe/gpu/nvidia_discovery.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace mc::probe {
namespace {

struct PciDevice {
  PciDevice(std::string address_, std::string vendor_ = "0x10de", std::string device_ = "0x2684",
            std::string class_ = "0x030000", std::string driver_ = "nvidia",
            std::string render_node_ = "")
      : address(std::move(address_)),
        vendor(std::move(vendor_)),
        device(std::move(device_)),
        device_class(std::move(class_)),
        driver(std::move(driver_)),
        render_node(std::move(render_node_)) {}
  std::string address;
  std::string vendor;
  std::string device;
  std::string device_class;
  std::string driver;
  std::string render_node;
};

// AddPciDevice lays a PCI device out as the kernel does: the device's directory under
// devices/, and bus/pci/devices/<address> linking to it.
void AddPciDevice(const testing::TempDir& dir, const PciDevice& pci) {
  const std::string device = "sys/devices/pci0000:00/" + pci.address;
  dir.Write(device + "/vendor", pci.vendor + "\n");
  dir.Write(device + "/device", pci.device + "\n");
  dir.Write(device + "/class", pci.device_class + "\n");
  if (!pci.driver.empty()) {
    dir.Write("sys/bus/pci/drivers/" + pci.driver + "/.keep", "");
    dir.Link(device + "/driver", "../../../bus/pci/drivers/" + pci.driver);
  }
  if (!pci.render_node.empty()) dir.Write(device + "/drm/" + pci.render_node + "/dev", "226:128\n");
  dir.Link("sys/bus/pci/devices/" + pci.address, "../../../devices/pci0000:00/" + pci.address);
}

class NvidiaDiscovery : public ::testing::Test {
 protected:
  Result<std::vector<Gpu>> Discover() {
    return DiscoverNvidiaGpus({(dir_.path() / "sys").string(), (dir_.path() / "dev").string()},
                              names_);
  }
  testing::TempDir dir_;
  PciNames names_;
};

TEST_F(NvidiaDiscovery, AnNvidiaDisplayControllerIsFoundAndNamedLikeAnyGpu) {
  AddPciDevice(dir_, PciDevice{"0000:19:00.0", "0x10de", "0x2335", "0x030200"});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  ASSERT_EQ(gpus->size(), 1u);
  const Gpu& gpu = (*gpus)[0];
  EXPECT_EQ(gpu.pci_address, "0000:19:00.0");
  EXPECT_EQ(gpu.device_name, "pci-0000-19-00-0");
  EXPECT_EQ(gpu.bus, "pci");
  EXPECT_EQ(gpu.kernel_driver, "nvidia");
  EXPECT_EQ(gpu.vendor_id, "10de");
  EXPECT_EQ(gpu.product_id, "2335");
  EXPECT_EQ(gpu.render_node, "");
  EXPECT_TRUE(gpu.problems.empty());
}

TEST_F(NvidiaDiscovery, OtherVendorsAndNvidiasAudioFunctionAreNotGpus) {
  AddPciDevice(dir_, PciDevice{"0000:00:02.0", "0x8086", "0x46a6"});
  AddPciDevice(dir_, PciDevice{"0000:01:00.0"});
  AddPciDevice(dir_, PciDevice{"0000:01:00.1", "0x10de", "0x22ba", "0x040300", "snd_hda_intel"});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].pci_address, "0000:01:00.0");
}

TEST_F(NvidiaDiscovery, GpusComeInAddressOrder) {
  AddPciDevice(dir_, PciDevice{"0000:c1:00.0"});
  AddPciDevice(dir_, PciDevice{"0000:41:00.0"});
  AddPciDevice(dir_, PciDevice{"0000:01:00.0"});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  ASSERT_EQ(gpus->size(), 3u);
  EXPECT_EQ((*gpus)[0].pci_address, "0000:01:00.0");
  EXPECT_EQ((*gpus)[1].pci_address, "0000:41:00.0");
  EXPECT_EQ((*gpus)[2].pci_address, "0000:c1:00.0");
}

TEST_F(NvidiaDiscovery, AGpuWithARenderNodeKeepsItsPath) {
  AddPciDevice(dir_,
               PciDevice{"0000:01:00.0", "0x10de", "0x2684", "0x030000", "nvidia", "renderD129"});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].render_node, (dir_.path() / "dev/dri/renderD129").string());
}

TEST_F(NvidiaDiscovery, AGpuWithoutADriverIsReportedWithTheProblem) {
  AddPciDevice(dir_, PciDevice{"0000:01:00.0", "0x10de", "0x2684", "0x030000", ""});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].kernel_driver, "");
  ASSERT_EQ((*gpus)[0].problems.size(), 1u);
  EXPECT_TRUE((*gpus)[0].problems[0].starts_with("no kernel driver is bound"))
      << (*gpus)[0].problems[0];
}

TEST_F(NvidiaDiscovery, AMachineWithoutAPciBusHasNoNvidiaGpu) {
  dir_.Write("sys/class/drm/.keep", "");
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  EXPECT_TRUE(gpus->empty());
}

TEST_F(NvidiaDiscovery, AClassFileThatIsNotHexIsNotAGpu) {
  AddPciDevice(dir_, PciDevice{"0000:01:00.0", "0x10de", "0x2684", "display"});
  Result<std::vector<Gpu>> gpus = Discover();
  ASSERT_TRUE(gpus) << gpus.error_message();
  EXPECT_TRUE(gpus->empty());
}

}  // namespace
}  // namespace mc::probe
