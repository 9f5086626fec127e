#include "probe/pipeline/probe_pipeline.h"

#include <gtest/gtest.h>

#include "support/fake_sysfs.h"

namespace mc::probe {
namespace {

using testing::AddFakePciGpu;
using testing::TempDir;

ProbeRequest NamedRequest(const TempDir& dir, std::vector<NamedPciDevice> named) {
  return {.roots = {(dir.path() / "sys").string(), (dir.path() / "dev").string()},
          .named_devices = std::move(named),
          .query = {.deadline = std::chrono::seconds(10), .fork_from_caller = true}};
}

TEST(ProbePipeline, ANamedGpuIsPublishedUnderItsGivenName) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  const ProbeResult result = ProbeGpus(NamedRequest(dir, {{"0000:00:02.0", "gpu-zero"}}));
  ASSERT_EQ(result.reports.size(), 1u);
  EXPECT_EQ(result.reports[0].device.name, "gpu-zero");
  EXPECT_EQ(result.reports[0].gpu.render_node, (dir.path() / "dev/dri/renderD128").string());
}

TEST(ProbePipeline, ANamedGpuThatSysfsDoesNotShowIsReportedAsFailedWithTheReason) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  const ProbeResult result =
      ProbeGpus(NamedRequest(dir, {{"0000:00:02.0", "present"}, {"0000:03:00.0", "absent"}}));
  ASSERT_EQ(result.reports.size(), 2u);
  EXPECT_EQ(result.reports[0].device.name, "absent");
  ASSERT_TRUE(result.reports[0].failure);
  EXPECT_EQ(*result.reports[0].failure,
            "sysfs (" + (dir.path() / "sys").string() +
                "/class/drm) shows no render node of the PCI device 0000:03:00.0");
  EXPECT_EQ(result.reports[1].device.name, "present");
}

TEST(ProbePipeline, OnlyTheNamedGpusAreProbed) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  AddFakePciGpu(dir, {.node = "renderD129", .address = "0000:03:00.0"});
  const ProbeResult result = ProbeGpus(NamedRequest(dir, {{"0000:03:00.0", "second"}}));
  ASSERT_EQ(result.reports.size(), 1u);
  EXPECT_EQ(result.reports[0].gpu.pci_address, "0000:03:00.0");
}

TEST(ProbePipeline, ANamedGpuWithoutAnAddressIsReportedAsFailed) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  const ProbeResult result = ProbeGpus(NamedRequest(dir, {{"", "nameless"}}));
  ASSERT_EQ(result.reports.size(), 1u);
  ASSERT_TRUE(result.reports[0].failure);
  EXPECT_EQ(*result.reports[0].failure, "no PCI address is known for this render node");
}

TEST(ProbePipeline, AskedForOneGpuItQueriesThatOneAndListsTheOthersUnasked) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  AddFakePciGpu(dir, {.node = "renderD129", .address = "0000:03:00.0"});
  for (const std::string named : {"1", "0000:03:00.0", "pci-0000-03-00-0"}) {
    SCOPED_TRACE(named);
    ProbeRequest request = NamedRequest(dir, {});
    request.only_gpu = named;
    const ProbeResult result = ProbeGpus(request);
    ASSERT_EQ(result.reports.size(), 2u);
    EXPECT_EQ(result.reports[0].gpu.pci_address, "0000:00:02.0");
    EXPECT_FALSE(result.reports[0].queried);
    EXPECT_EQ(result.reports[0].failure, "not queried: this probe asks GPU " + named + " alone");
    EXPECT_TRUE(LogLines(result.reports[0]).empty());
    // The fake sysfs has no VA driver behind it, so the query made fails, and says so.
    EXPECT_TRUE(result.reports[1].queried);
    ASSERT_TRUE(result.reports[1].failure);
    EXPECT_EQ(result.reports[1].failure->find("not queried"), std::string::npos);
  }
}

TEST(ProbePipeline, AskedForAGpuThatIsNotThereItQueriesNone) {
  TempDir dir;
  AddFakePciGpu(dir, {.node = "renderD128", .address = "0000:00:02.0"});
  ProbeRequest request = NamedRequest(dir, {});
  request.only_gpu = "3";
  const ProbeResult result = ProbeGpus(request);
  ASSERT_EQ(result.reports.size(), 1u);
  EXPECT_FALSE(result.reports[0].queried);
}

}  // namespace
}  // namespace mc::probe
