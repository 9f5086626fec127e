#include "dra/agent/eviction_guard.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace mc::dra {
namespace {

using std::chrono::minutes;

const WallClock::time_point kNow = WallClock::time_point(std::chrono::seconds(1'800'000'000));

TEST(EvictionGuard, AMissingRenderNodeNeverEvictedForIsEvictedForAtOnce) {
  const EvictionDecision decision = DecideSelfEviction({"pci-0000-03-00-0"}, {}, kNow);
  EXPECT_EQ(decision.evict_for, std::vector<std::string>{"pci-0000-03-00-0"});
  EXPECT_TRUE(decision.given_up.empty());
}

TEST(EvictionGuard, NoMissingRenderNodeEvictsNothing) {
  const EvictionDecision decision = DecideSelfEviction({}, {}, kNow);
  EXPECT_TRUE(decision.evict_for.empty());
  EXPECT_EQ(decision.next_due, WallClock::time_point{});
}

TEST(EvictionGuard, ASecondEvictionWaitsForTheSecondWaitAndNoLonger) {
  const EvictionRecords once = {{"pci-0000-03-00-0", {.evictions = 1, .last = kNow}}};
  const EvictionDecision early = DecideSelfEviction({"pci-0000-03-00-0"}, once, kNow + minutes(14));
  EXPECT_TRUE(early.evict_for.empty());
  EXPECT_EQ(early.next_due, kNow + kEvictionWaits[1]);
  const EvictionDecision due = DecideSelfEviction({"pci-0000-03-00-0"}, once, kNow + minutes(15));
  EXPECT_EQ(due.evict_for, std::vector<std::string>{"pci-0000-03-00-0"});
}

TEST(EvictionGuard, AfterEveryAllowedEvictionTheGuardGivesUpAndSaysForWhichNode) {
  const int most = static_cast<int>(std::size(kEvictionWaits));
  const EvictionRecords spent = {{"pci-0000-03-00-0", {.evictions = most, .last = kNow}}};
  const EvictionDecision decision =
      DecideSelfEviction({"pci-0000-03-00-0"}, spent, kNow + std::chrono::hours(24 * 365));
  EXPECT_TRUE(decision.evict_for.empty());
  EXPECT_EQ(decision.given_up, std::vector<std::string>{"pci-0000-03-00-0"});
}

TEST(EvictionGuard, ANewRenderNodeIsEvictedForEvenWhileAnotherWaits) {
  const EvictionRecords once = {{"pci-0000-03-00-0", {.evictions = 1, .last = kNow}}};
  const EvictionDecision decision =
      DecideSelfEviction({"pci-0000-03-00-0", "pci-0000-04-00-0"}, once, kNow + minutes(1));
  EXPECT_EQ(decision.evict_for, std::vector<std::string>{"pci-0000-04-00-0"});
  EXPECT_EQ(decision.next_due, kNow + kEvictionWaits[1]);
}

TEST(EvictionGuard, TheRecordCountsEachEvictionAndForgetsNodesNoLongerMissing) {
  const EvictionRecords before = {{"pci-0000-03-00-0", {.evictions = 1, .last = kNow}},
                                  {"pci-0000-09-00-0", {.evictions = 2, .last = kNow}}};
  const WallClock::time_point later = kNow + minutes(20);
  const EvictionRecords after = AfterEviction(before, {"pci-0000-03-00-0", "pci-0000-04-00-0"},
                                              {"pci-0000-03-00-0", "pci-0000-04-00-0"}, later);
  const EvictionRecords want = {{"pci-0000-03-00-0", {.evictions = 2, .last = later}},
                                {"pci-0000-04-00-0", {.evictions = 1, .last = later}}};
  EXPECT_EQ(after, want);
}

TEST(EvictionGuard, TheRecordReadsBackWhatItWrote) {
  const EvictionRecords records = {{"pci-0000-03-00-0", {.evictions = 2, .last = kNow}}};
  Result<EvictionRecords> parsed = ParseEvictionRecords(EvictionRecordsJson(records));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(*parsed, records);
}

TEST(EvictionGuard, AMalformedRecordIsAnErrorThatNamesThePlace) {
  Result<EvictionRecords> parsed = ParseEvictionRecords(
      R"({"version": 1, "render_nodes": {"pci-0000-03-00-0": {"evictions": "two", "last_unix_s": 0}}})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "render_nodes.pci-0000-03-00-0.evictions: expected an integer");
  EXPECT_TRUE(parsed.error().IsInvalidInput());
  EXPECT_FALSE(ParseEvictionRecords("{"));
  EXPECT_FALSE(ParseEvictionRecords(R"({"version": 2, "render_nodes": {}})"));
  EXPECT_FALSE(ParseEvictionRecords(R"({"version": 1})"));
}

// The clock counts nanoseconds in 64 bits: a second past the year 2262 would overflow when it
// became a time, so a record's time is bounded well before it.
TEST(EvictionGuard, ARecordedTimeBeyondWhatTheClockHoldsIsRefusedNamingThePlace) {
  Result<EvictionRecords> parsed = ParseEvictionRecords(
      R"({"version": 1, "render_nodes": {"pci-0000-03-00-0": {"evictions": 0, "last_unix_s": 18000000000}}})");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error_message().find("render_nodes.pci-0000-03-00-0.last_unix_s"),
            std::string::npos)
      << parsed.error_message();
  Result<EvictionRecords> latest = ParseEvictionRecords(
      R"({"version": 1, "render_nodes": {"pci-0000-03-00-0": {"evictions": 0, "last_unix_s": 4294967296}}})");
  ASSERT_TRUE(latest) << latest.error_message();
  Result<EvictionRecords> again = ParseEvictionRecords(EvictionRecordsJson(*latest));
  ASSERT_TRUE(again) << again.error_message();
  EXPECT_EQ(*again, *latest);
}

TEST(EvictionGuard, AFileThatDoesNotExistIsAnEmptyRecordAndASavedOneLoadsBack) {
  const std::filesystem::path dir = ::testing::TempDir() + "/eviction-guard-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "render-node-evictions.json";
  Result<EvictionRecords> none = LoadEvictionRecords(file);
  ASSERT_TRUE(none) << none.error_message();
  EXPECT_TRUE(none->empty());
  const EvictionRecords records = {{"pci-0000-03-00-0", {.evictions = 1, .last = kNow}}};
  ASSERT_TRUE(SaveEvictionRecords(file, records));
  Result<EvictionRecords> loaded = LoadEvictionRecords(file);
  ASSERT_TRUE(loaded) << loaded.error_message();
  EXPECT_EQ(*loaded, records);
  EXPECT_FALSE(std::filesystem::exists(file.string() + ".new"));
  std::ofstream(file) << "garbage";
  Result<EvictionRecords> broken = LoadEvictionRecords(file);
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error_message().find(file.string()), std::string::npos)
      << broken.error_message();
}

TEST(EvictionGuard, ARecordThatCannotBeWrittenIsAnError) {
  EXPECT_FALSE(SaveEvictionRecords("/nonexistent-directory/render-node-evictions.json", {}));
}

}  // namespace
}  // namespace mc::dra
