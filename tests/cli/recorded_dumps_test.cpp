// Every recorded vainfo dump in tests/fakeva/dumps, replayed through the real libva and
// the fake VA driver by tests/fakeva/probe-dump, must publish exactly the values written by
// hand, from the dump, in its .expected.json beside it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "capabilities/capability_table.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> Dumps() {
  std::vector<fs::path> dumps;
  for (const auto& entry : fs::directory_iterator(MEDIA_CAP_DUMPS_DIR)) {
    if (entry.path().extension() == ".txt") dumps.push_back(entry.path());
  }
  std::sort(dumps.begin(), dumps.end());
  return dumps;
}

TEST(RecordedDumps, AtLeastEightRealDumpsAreCommittedEachWithItsSourceAndExpectation) {
  const std::vector<fs::path> dumps = Dumps();
  EXPECT_GE(dumps.size(), 8u);
  for (const fs::path& dump : dumps) {
    EXPECT_TRUE(testing::ReadFile(dump).starts_with("# source: ")) << dump;
    fs::path expected = dump;
    expected.replace_extension(".expected.json");
    EXPECT_TRUE(fs::exists(expected)) << expected;
  }
}

TEST(RecordedDumps, EachDumpPublishesTheValuesDerivedFromItByHand) {
  for (const fs::path& dump : Dumps()) {
    SCOPED_TRACE(dump.filename().string());
    fs::path expected_file = dump;
    expected_file.replace_extension(".expected.json");
    const json expected = json::parse(testing::ReadFile(expected_file));

    const ChildOutcome run = testing::RunCommand({MEDIA_CAP_PROBE_DUMP, dump.string()},
                                                 {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
    ASSERT_EQ(run.kind, ChildOutcome::Kind::kExited);
    ASSERT_EQ(run.code, 0) << run.err;
    const json devices = json::parse(run.out);
    ASSERT_EQ(devices.size(), 1u) << run.out;
    const json& attributes = devices[0]["attributes"];

    for (const Capability& capability : kCapabilities) {
      const std::string name(capability.name);
      ASSERT_TRUE(expected.contains(name)) << name << " is missing from " << expected_file;
      ASSERT_TRUE(attributes.contains(name)) << name;
      EXPECT_EQ(attributes[name]["bool"].get<bool>(), expected[name].get<bool>()) << name;
    }
    if (expected["vaDriver"].is_null()) {
      EXPECT_FALSE(attributes.contains("vaDriver"));
      EXPECT_NE(run.err.find("query failed: "), std::string::npos) << run.err;
    } else {
      ASSERT_TRUE(attributes.contains("vaDriver"));
      const std::string published = attributes["vaDriver"]["string"];
      const std::string stated = expected["vaDriver"];
      EXPECT_EQ(published, stated.substr(0, published.size()));
      EXPECT_EQ(published.size(), std::min<std::size_t>(stated.size(), 64)) << published;
    }
  }
}

}  // namespace
}  // namespace mc
