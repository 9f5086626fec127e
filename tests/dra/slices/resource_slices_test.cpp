#include "dra/slices/resource_slices.h"

#include <gtest/gtest.h>

#include <string>

namespace mc::dra {
namespace {

using Json = nlohmann::json;

const SliceOwner kOwner{.driver = "media.liken.sh", .node_name = "worker-1", .node_uid = "uid-1"};

probe::Device NamedDevice(const std::string& name, bool decodes = true) {
  return probe::Device{.name = name, .attributes = {{"decodeH264", decodes}}};
}

// AsStored gives the object as the server would hold it after the write: the same, with
// the metadata the server adds.
Json AsStored(const SliceWrite& write, const std::string& resource_version = "100") {
  Json object = write.object;
  object["metadata"]["uid"] = "slice-uid-" + write.name;
  object["metadata"]["resourceVersion"] = resource_version;
  object["metadata"]["creationTimestamp"] = "2026-12-02T15:00:00Z";
  return object;
}

std::map<std::string, Json> Hold(const std::vector<SliceWrite>& writes) {
  std::map<std::string, Json> current;
  for (const SliceWrite& write : writes) current[write.name] = AsStored(write);
  return current;
}

TEST(PlanSliceWrites, TheFirstPublicationCreatesOneSliceOwnedByTheNodeAtGenerationOne) {
  const std::vector<SliceWrite> writes = PlanSliceWrites(
      kOwner, {NamedDevice("pci-0000-02-00-0"), NamedDevice("pci-0000-01-00-0")}, {});
  ASSERT_EQ(writes.size(), 1u);
  const SliceWrite& create = writes[0];
  EXPECT_EQ(create.kind, SliceWrite::Kind::kCreate);
  EXPECT_EQ(create.name, "worker-1-media.liken.sh");
  EXPECT_EQ(create.generation, 1);
  EXPECT_EQ(create.device_count, 2u);
  const Json& spec = create.object["spec"];
  EXPECT_EQ(spec["driver"], "media.liken.sh");
  EXPECT_EQ(spec["nodeName"], "worker-1");
  EXPECT_EQ(spec["pool"],
            (Json{{"name", "worker-1"}, {"generation", 1}, {"resourceSliceCount", 1}}));
  EXPECT_EQ(spec["devices"][0]["name"], "pci-0000-01-00-0")
      << "devices are published sorted by name";
  EXPECT_EQ(spec["devices"][1]["name"], "pci-0000-02-00-0");
  EXPECT_EQ(
      create.object["metadata"]["ownerReferences"],
      Json::parse(
          R"([{"apiVersion":"v1","kind":"Node","name":"worker-1","uid":"uid-1","controller":true}])"));
}

TEST(PlanSliceWrites, NothingIsWrittenWhenTheServerAlreadyHoldsTheSlices) {
  const std::vector<probe::Device> devices = {NamedDevice("pci-0000-01-00-0")};
  const auto current = Hold(PlanSliceWrites(kOwner, devices, {}));
  EXPECT_TRUE(PlanSliceWrites(kOwner, devices, current).empty());
}

TEST(PlanSliceWrites, AChangedDeviceUpdatesTheSliceAtTheNextGenerationOverTheVersionItRead) {
  const auto current = Hold(PlanSliceWrites(kOwner, {NamedDevice("pci-0000-01-00-0", false)}, {}));
  const std::vector<SliceWrite> writes =
      PlanSliceWrites(kOwner, {NamedDevice("pci-0000-01-00-0", true)}, current);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].kind, SliceWrite::Kind::kUpdate);
  EXPECT_EQ(writes[0].generation, 2);
  EXPECT_EQ(writes[0].object["spec"]["pool"]["generation"], 2);
  EXPECT_EQ(writes[0].object["metadata"]["resourceVersion"], "100");
}

TEST(PlanSliceWrites, MoreThan128DevicesBecomeSeveralSlicesOfOnePool) {
  std::vector<probe::Device> devices;
  for (int i = 0; i < 300; ++i) devices.push_back(NamedDevice("gpu-" + std::to_string(1000 + i)));
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, devices, {});
  ASSERT_EQ(writes.size(), 3u);
  EXPECT_EQ(writes[0].name, "worker-1-media.liken.sh");
  EXPECT_EQ(writes[1].name, "worker-1-media.liken.sh-1");
  EXPECT_EQ(writes[2].name, "worker-1-media.liken.sh-2");
  EXPECT_EQ(writes[0].device_count, 128u);
  EXPECT_EQ(writes[1].device_count, 128u);
  EXPECT_EQ(writes[2].device_count, 44u);
  for (const SliceWrite& write : writes) {
    EXPECT_EQ(write.object["spec"]["pool"]["resourceSliceCount"], 3);
    EXPECT_EQ(write.object["spec"]["pool"]["name"], "worker-1");
  }
  EXPECT_EQ(writes[1].object["spec"]["devices"][0]["name"], "gpu-1128");
}

TEST(PlanSliceWrites, AChangeInOneSliceMovesTheGenerationOfEverySliceOfThePool) {
  std::vector<probe::Device> devices;
  for (int i = 0; i < 130; ++i) devices.push_back(NamedDevice("gpu-" + std::to_string(1000 + i)));
  const auto current = Hold(PlanSliceWrites(kOwner, devices, {}));
  devices.back() = NamedDevice("gpu-1129", false);
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, devices, current);
  ASSERT_EQ(writes.size(), 2u);
  for (const SliceWrite& write : writes) {
    EXPECT_EQ(write.kind, SliceWrite::Kind::kUpdate);
    EXPECT_EQ(write.generation, 2);
  }
}

TEST(PlanSliceWrites, ASliceOfThisDriverAndNodeThatTheAgentDoesNotNameIsDeletedFirst) {
  std::vector<probe::Device> devices;
  for (int i = 0; i < 130; ++i) devices.push_back(NamedDevice("gpu-" + std::to_string(1000 + i)));
  auto current = Hold(PlanSliceWrites(kOwner, devices, {}));
  devices.resize(2);
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, devices, current);
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0].kind, SliceWrite::Kind::kDelete);
  EXPECT_EQ(writes[0].name, "worker-1-media.liken.sh-1");
  EXPECT_EQ(writes[0].uid, "slice-uid-worker-1-media.liken.sh-1")
      << "the delete is conditional on what was read";
  EXPECT_EQ(writes[0].resource_version, "100");
  EXPECT_EQ(writes[1].kind, SliceWrite::Kind::kUpdate);
  EXPECT_EQ(writes[1].object["spec"]["pool"]["resourceSliceCount"], 1);
}

TEST(PlanSliceWrites, ANodeWithNoGpuPublishesOneEmptySlice) {
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, {}, {});
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].kind, SliceWrite::Kind::kCreate);
  EXPECT_FALSE(writes[0].object["spec"].contains("devices"));
  EXPECT_TRUE(PlanSliceWrites(kOwner, {}, Hold(writes)).empty());
}

TEST(PlanSliceWrites, ASliceOwnedByAnOlderNodeOfTheSameNameIsRewrittenWithTheNewUid) {
  const auto current = Hold(PlanSliceWrites(kOwner, {NamedDevice("a")}, {}));
  SliceOwner recreated = kOwner;
  recreated.node_uid = "uid-2";
  const std::vector<SliceWrite> writes = PlanSliceWrites(recreated, {NamedDevice("a")}, current);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].object["metadata"]["ownerReferences"][0]["uid"], "uid-2");
}

TEST(PlanSliceWrites, AnOutsideEditIsWrittenBackButItsLabelsAreKept) {
  auto current = Hold(PlanSliceWrites(kOwner, {NamedDevice("a")}, {}));
  Json& held = current["worker-1-media.liken.sh"];
  held["spec"]["devices"][0]["attributes"]["decodeH264"]["bool"] = false;
  held["metadata"]["labels"] = {{"team", "video"}};
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, {NamedDevice("a")}, current);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].object["spec"]["devices"][0]["attributes"]["decodeH264"]["bool"], true);
  EXPECT_EQ(writes[0].object["metadata"]["labels"]["team"], "video");
}

TEST(PlanSliceWrites, AFieldTheServerDropsIsNotWrittenAgainAndAgain) {
  const std::vector<probe::Device> devices = {NamedDevice("a")};
  const std::vector<SliceWrite> first = PlanSliceWrites(kOwner, devices, {});
  Json stored = AsStored(first[0]);
  stored["spec"]["devices"][0].erase("allowMultipleAllocations");
  const std::map<std::string, Json> current = {{first[0].name, stored}};
  ASSERT_FALSE(PlanSliceWrites(kOwner, devices, current).empty())
      << "without the stored form it looks stale";
  const std::map<std::string, StoredForm> forms = {
      {first[0].name, {.sent_spec = first[0].object["spec"], .stored_spec = stored["spec"]}}};
  EXPECT_TRUE(PlanSliceWrites(kOwner, devices, current, forms).empty());
  EXPECT_FALSE(PlanSliceWrites(kOwner, {NamedDevice("a", false)}, current, forms).empty())
      << "a real change is still written";
}

TEST(SliceDifferences, NamesTheFieldTheServerDropped) {
  const SliceWrite write = PlanSliceWrites(kOwner, {NamedDevice("a")}, {})[0];
  Json stored = AsStored(write);
  EXPECT_TRUE(SliceDifferences(write.object, stored).empty());
  stored["spec"]["devices"][0].erase("allowMultipleAllocations");
  EXPECT_EQ(SliceDifferences(write.object, stored),
            std::vector<std::string>{"spec.devices[0].allowMultipleAllocations"});
}

TEST(PlanSliceWrites, ServerObjectsOfAnyShapeNeverBreakThePlan) {
  const std::map<std::string, Json> current = {
      {"worker-1-media.liken.sh", Json::array({1, 2})},
      {"worker-1-media.liken.sh-1", Json{{"metadata", "not an object"}, {"spec", {{"pool", 3}}}}},
      {"worker-1-media.liken.sh-2", Json(nullptr)}};
  const std::vector<SliceWrite> writes = PlanSliceWrites(kOwner, {NamedDevice("a")}, current);
  ASSERT_EQ(writes.size(), 3u);
  EXPECT_EQ(writes[0].kind, SliceWrite::Kind::kDelete);
  EXPECT_EQ(writes[1].kind, SliceWrite::Kind::kDelete);
  EXPECT_EQ(writes[2].kind, SliceWrite::Kind::kUpdate);
}

}  // namespace
}  // namespace mc::dra
