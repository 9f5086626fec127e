#include "probe/gpu/render_node_discovery.h"

#include <gtest/gtest.h>

#include "support/fake_sysfs.h"

namespace mc::probe {
namespace {

using testing::AddFakePciGpu;
using testing::FakePciGpu;
using testing::TempDir;

DiscoveryRoots RootsIn(const TempDir& dir) {
  return {(dir.path() / "sys").string(), (dir.path() / "dev").string()};
}

TEST(RenderNodeDiscovery, RenderNodesAreListedInTheOrderOfTheirMinorNumbers) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD129", .address = "0000:03:00.0"});
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  dir.Write("sys/class/drm/card0/.keep", "");
  dir.Write("sys/class/drm/renderDx/.keep", "");
  Result<std::vector<std::string>> nodes = ListRenderNodes(RootsIn(dir));
  ASSERT_TRUE(nodes) << nodes.error_message();
  EXPECT_EQ(*nodes, (std::vector<std::string>{"renderD128", "renderD129"}));
}

TEST(RenderNodeDiscovery, AMachineWithoutDrmSaysWhereItLooked) {
  TempDir dir;
  Result<std::vector<std::string>> nodes = ListRenderNodes(RootsIn(dir));
  ASSERT_FALSE(nodes);
  EXPECT_NE(nodes.error_message().find((dir.path() / "sys/class/drm").string()), std::string::npos);
}

TEST(RenderNodeDiscovery, APciGpuIsDescribedFromSysfsAndThePciIdDatabase) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128",
                      .address = "0000:00:02.0",
                      .vendor = "0x8086",
                      .device = "0x46A6",
                      .driver = "i915"});
  PciNames names;
  const Gpu gpu = DescribeRenderNode(RootsIn(dir), "renderD128", names);
  EXPECT_EQ(gpu.render_node, (dir.path() / "dev/dri/renderD128").string());
  EXPECT_EQ(gpu.bus, "pci");
  EXPECT_EQ(gpu.pci_address, "0000:00:02.0");
  EXPECT_EQ(gpu.device_name, "pci-0000-00-02-0");
  EXPECT_EQ(gpu.kernel_driver, "i915");
  EXPECT_EQ(gpu.vendor_id, "8086");
  EXPECT_EQ(gpu.product_id, "46a6");
  EXPECT_EQ(gpu.product_name, "Alder Lake-P Integrated Graphics Controller");
  EXPECT_TRUE(gpu.problems.empty());
}

TEST(RenderNodeDiscovery, MissingIdFilesAreNamedAndTheRestIsStillRead) {
  TempDir dir;
  AddFakePciGpu(dir, {.vendor = "", .device = "nonsense"});
  PciNames names;
  const Gpu gpu = DescribeRenderNode(RootsIn(dir), "renderD128", names);
  EXPECT_EQ(gpu.pci_address, "0000:00:02.0");
  EXPECT_EQ(gpu.kernel_driver, "i915");
  EXPECT_EQ(gpu.vendor_id, "");
  EXPECT_EQ(gpu.product_id, "");
  EXPECT_EQ(gpu.product_name, "");
  ASSERT_EQ(gpu.problems.size(), 2u);
  EXPECT_NE(gpu.problems[0].find("cannot read"), std::string::npos);
  EXPECT_NE(gpu.problems[1].find("\"nonsense\", not a hex number of at most 4 digits"),
            std::string::npos);
}

TEST(RenderNodeDiscovery, ARenderNodeThatIsNotOnPciIsNamedFromItsNode) {
  TempDir dir;
  dir.Write("sys/devices/platform/soc/gpu/.keep", "");
  dir.Link("sys/devices/platform/soc/gpu/subsystem", "../../../../bus/platform");
  dir.Link("sys/devices/platform/soc/gpu/driver", "../../../../bus/platform/drivers/panfrost");
  dir.Link("sys/class/drm/renderD128", "../../devices/platform/soc/gpu/drm/renderD128");
  dir.Link("sys/devices/platform/soc/gpu/drm/renderD128/device", "../../../gpu");
  PciNames names;
  const Gpu gpu = DescribeRenderNode(RootsIn(dir), "renderD128", names);
  EXPECT_EQ(gpu.bus, "platform");
  EXPECT_EQ(gpu.kernel_driver, "panfrost");
  EXPECT_EQ(gpu.pci_address, "");
  EXPECT_EQ(gpu.device_name, "renderd128");
  EXPECT_TRUE(gpu.problems.empty());
}

TEST(RenderNodeDiscovery, ANodeWithoutASysfsEntryIsStillDescribed) {
  TempDir dir;
  PciNames names;
  const Gpu gpu = DescribeRenderNode(RootsIn(dir), "renderD130", names);
  EXPECT_EQ(gpu.device_name, "renderd130");
  ASSERT_EQ(gpu.problems.size(), 1u);
  EXPECT_NE(gpu.problems[0].find("cannot resolve"), std::string::npos);
}

TEST(RenderNodeDiscovery, AUserPathMapsToItsNodeName) {
  EXPECT_EQ(RenderNodeForPath("/dev/dri/renderD129"), "renderD129");
}

}  // namespace
}  // namespace mc::probe
