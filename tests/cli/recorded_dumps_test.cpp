// Every recorded vainfo dump in tests/fakeva/dumps, replayed through the real libva and
// the fake VA driver by tests/fakeva/probe-dump, must publish exactly the values written by
// hand, from the dump, in its .expected.json beside it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "probe/capabilities/capability_table.h"
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

TEST(RecordedDumps, AtLeastEightRealDumpsAreCommittedEachWithItsSourceIdsAndExpectation) {
  const std::vector<fs::path> dumps = Dumps();
  EXPECT_GE(dumps.size(), 8u);
  for (const fs::path& dump : dumps) {
    const std::string text = testing::ReadFile(dump);
    EXPECT_TRUE(text.starts_with("# source: ")) << dump;
    // The GPU's PCI ids, or its vendor alone, with where they come from (README.md there).
    EXPECT_TRUE(text.substr(text.find('\n') + 1).starts_with("# pci-id: ")) << dump;
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

    const probe::ChildOutcome run = testing::RunCommand({MEDIA_CAP_PROBE_DUMP, dump.string()},
                                                        {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
    ASSERT_EQ(run.kind, probe::ChildOutcome::Kind::kExited);
    ASSERT_EQ(run.code, 0) << run.err;
    const json devices = json::parse(run.out);
    ASSERT_EQ(devices.size(), 1u) << run.out;
    const json& attributes = devices[0]["attributes"];

    for (const probe::Capability& capability : probe::kCapabilities) {
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

// PciIdOf gives the ids a dump's "# pci-id:" line names: "1002:73df", or "8086" alone.
std::string PciIdOf(const fs::path& dump) {
  const std::string text = testing::ReadFile(dump);
  const std::size_t at = text.find("\n# pci-id: ");
  if (at == std::string::npos) return "";
  const std::size_t start = at + std::string_view("\n# pci-id: ").size();
  return text.substr(start, text.find_first_of(" \n", start) - start);
}

// Every dump laid out on one fake machine: each GPU has the vendor and model its dump's
// header gives (none for a dump whose source names no model), and the default table of them
// all fits in a terminal of 80 columns.
TEST(RecordedDumps, EachGpuHasItsDumpsIdsAndTheTableOfThemAllFitsEightyColumns) {
  const std::vector<fs::path> dumps = Dumps();
  std::vector<std::string> argv = {MEDIA_CAP_PROBE_DUMP};
  for (const fs::path& dump : dumps) argv.push_back(dump.string());
  std::vector<std::string> json_argv = argv;
  json_argv.insert(json_argv.end(), {"--", "--output", "json"});
  const probe::ChildOutcome probed =
      testing::RunCommand(json_argv, {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(probed.code, 0) << probed.err;
  const json devices = json::parse(probed.out);
  ASSERT_EQ(devices.size(), dumps.size());
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    SCOPED_TRACE(dumps[i].filename().string());
    const std::string id = PciIdOf(dumps[i]);
    const json& attributes = devices[i]["attributes"];
    EXPECT_EQ(attributes["vendor"]["string"], id.substr(0, 4));
    if (id.size() > 4) {
      EXPECT_EQ(attributes["product"]["string"], id.substr(5));
      EXPECT_TRUE(attributes.contains("name"));
    } else {
      EXPECT_FALSE(attributes.contains("product"));
    }
  }

  argv.insert(argv.end(), {"--", "--output", "table"});
  const probe::ChildOutcome table =
      testing::RunCommand(argv, {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(table.code, 0) << table.err;
  std::size_t start = 0;
  while (start < table.out.size()) {
    const std::string line = table.out.substr(start, table.out.find('\n', start) - start);
    // A word wider than the room (a temporary directory's path) keeps a line of its own.
    const bool one_word = line.find_first_not_of(' ') == line.rfind(' ') + 1;
    if (!one_word) {
      EXPECT_LE(line.size(), 80u) << line;
    }
    start += line.size() + 1;
  }
}

}  // namespace
}  // namespace mc
