#include "dra/agent/liken_render_nodes.h"

#include <gtest/gtest.h>

namespace mc::dra {
namespace {

using Json = nlohmann::json;

Json LikenSlice(const std::string& name, std::int64_t generation, Json devices) {
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"driver", "liken.sh"},
            {"pool", {{"name", "worker-1"}, {"generation", generation}}},
            {"devices", std::move(devices)}}}};
}

Json RenderNode(const std::string& name, const std::string& address) {
  return {{"name", name},
          {"attributes", {{"renderNode", {{"bool", true}}}, {"address", {{"string", address}}}}}};
}

TEST(LikenRenderNodes, EveryRenderNodeIsReadWithItsCanonicalAddressAndOtherDevicesAreNot) {
  Json display = {{"name", "pci-0000-00-02-0-display"},
                  {"attributes", {{"displayNode", {{"bool", true}}}}}};
  Json not_render = RenderNode("pci-0000-00-03-0", "0000:00:03.0");
  not_render["attributes"]["renderNode"]["bool"] = false;
  const LikenRenderNodes found = RenderNodesOfLikenSlices(
      {LikenSlice("worker-1-liken.sh", 1,
                  {RenderNode("pci-0000-01-00-0", "0000:01:00.0"), display, not_render,
                   RenderNode("pci-0000-00-02-0", "0:00:02.0")})});
  EXPECT_TRUE(found.problems.empty());
  EXPECT_EQ(found.nodes, (std::vector<LikenRenderNode>{{"pci-0000-00-02-0", "0000:00:02.0"},
                                                       {"pci-0000-01-00-0", "0000:01:00.0"}}));
}

TEST(LikenRenderNodes, OnlyThePoolsNewestGenerationCounts) {
  const LikenRenderNodes found = RenderNodesOfLikenSlices(
      {LikenSlice("old", 1, {RenderNode("gone", "0000:05:00.0")}),
       LikenSlice("new", 2, {RenderNode("pci-0000-01-00-0", "0000:01:00.0")})});
  ASSERT_EQ(found.nodes.size(), 1u);
  EXPECT_EQ(found.nodes[0].device_name, "pci-0000-01-00-0");
}

TEST(LikenRenderNodes, TheStandardPciBusIdServesWhenThereIsNoAddress) {
  Json node = {{"name", "n"},
               {"attributes",
                {{"renderNode", {{"bool", true}}},
                 {"resource.kubernetes.io/pciBusID", {{"string", "0000:07:00.0"}}}}}};
  const LikenRenderNodes found = RenderNodesOfLikenSlices({LikenSlice("s", 1, {node})});
  ASSERT_EQ(found.nodes.size(), 1u);
  EXPECT_EQ(found.nodes[0].pci_address, "0000:07:00.0");
}

TEST(LikenRenderNodes, ARenderNodeWithNoPciAddressIsKeptAndNamedAsAProblem) {
  const LikenRenderNodes found = RenderNodesOfLikenSlices(
      {LikenSlice("s", 1, {RenderNode("platform-gpu", "soc/fd000000.gpu")})});
  ASSERT_EQ(found.nodes.size(), 1u) << "it is still published, with its query failed";
  EXPECT_EQ(found.nodes[0].pci_address, "");
  ASSERT_EQ(found.problems.size(), 1u);
  EXPECT_NE(found.problems[0].find("platform-gpu"), std::string::npos);
  EXPECT_NE(found.problems[0].find("soc/fd000000.gpu"), std::string::npos);
}

TEST(LikenRenderNodes, MalformedSlicesAreNamedAndTheRestIsRead) {
  Json no_generation = LikenSlice("bad-generation", 1, Json::array());
  no_generation["spec"]["pool"].erase("generation");
  const LikenRenderNodes found = RenderNodesOfLikenSlices(
      {no_generation, LikenSlice("bad-devices", 1, "not a list"), Json("not an object"),
       LikenSlice(
           "good", 1,
           {RenderNode("pci-0000-01-00-0", "0000:01:00.0"), Json(7), Json{{"attributes", 3}}})});
  ASSERT_EQ(found.nodes.size(), 1u);
  EXPECT_EQ(found.nodes[0].device_name, "pci-0000-01-00-0");
  EXPECT_EQ(found.problems.size(), 3u);
}

TEST(LikenRenderNodes, ANameListedTwiceIsOneRenderNode) {
  const LikenRenderNodes found =
      RenderNodesOfLikenSlices({LikenSlice("a", 1, {RenderNode("n", "0000:01:00.0")}),
                                LikenSlice("b", 1, {RenderNode("n", "0000:01:00.0")})});
  EXPECT_EQ(found.nodes.size(), 1u);
}

}  // namespace
}  // namespace mc::dra
