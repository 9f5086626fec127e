#include "probe/gpu/gpu_selector.h"

#include <gtest/gtest.h>

#include <vector>

namespace mc::probe {
namespace {

const std::vector<Gpu> kGpus = {
    {.render_node = "/dev/dri/renderD128",
     .pci_address = "0000:01:00.0",
     .device_name = "pci-0000-01-00-0"},
    {.render_node = "/dev/dri/renderD129",
     .pci_address = "0000:02:00.0",
     .device_name = "pci-0000-02-00-0"},
};

TEST(SelectGpu, FindsAGpuByItsDeviceNameRenderNodeOrPciAddressInAnySpelling) {
  EXPECT_EQ(SelectGpu(kGpus, "pci-0000-02-00-0"), 1u);
  EXPECT_EQ(SelectGpu(kGpus, "/dev/dri/renderD129"), 1u);
  EXPECT_EQ(SelectGpu(kGpus, "0000:02:00.0"), 1u);
  EXPECT_EQ(SelectGpu(kGpus, "00000000:02:00.0"), 1u);
  EXPECT_EQ(SelectGpu(kGpus, "0000:01:00.0"), 0u);
}

TEST(SelectGpu, TakesABareNumberAsThePlaceInPciAddressOrder) {
  EXPECT_EQ(SelectGpu(kGpus, "0"), 0u);
  EXPECT_EQ(SelectGpu(kGpus, "1"), 1u);
}

TEST(SelectGpu, FindsNothingForAPlacePastTheEndOrANameNoGpuHas) {
  EXPECT_EQ(SelectGpu(kGpus, "2"), std::nullopt);
  EXPECT_EQ(SelectGpu(kGpus, "-1"), std::nullopt);
  EXPECT_EQ(SelectGpu(kGpus, "pci-0000-03-00-0"), std::nullopt);
  EXPECT_EQ(SelectGpu(kGpus, "0000:03:00.0"), std::nullopt);
  EXPECT_EQ(SelectGpu(kGpus, ""), std::nullopt);
  EXPECT_EQ(SelectGpu({}, "0"), std::nullopt);
}

}  // namespace
}  // namespace mc::probe
