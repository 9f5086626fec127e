// The concurrency resolver, table-tested: each row is a box and what it has free, and the
// concurrency and the limiter that bound it, worked out by hand.
#include "worker/probe_contract/concurrency.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace mc::worker {
namespace {

ConcurrencyInputs RoomyBox() {
  ConcurrencyInputs inputs;
  inputs.probe_ok = true;
  inputs.cpu_cores = 16;
  inputs.ram_mb = 32768;
  inputs.disk_gb = 400;
  inputs.bandwidth_mbps = 1000;
  return inputs;
}

struct Row {
  const char* what;
  ConcurrencyInputs inputs;
  std::int64_t concurrency;
  const char* bound_by;
};

std::vector<Row> Rows() {
  std::vector<Row> rows;
  {
    // 16 cores at 0.5 a job: 32; RAM 32768 / 512: 64; disk 400 / 4: 100; bw 1000 / 20: 50.
    rows.push_back({"a roomy VA-API box is bound by its CPU", RoomyBox(), 32, "cpu"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.sessions_free = 8 - 1;  // a GeForce cap of 8 with one held in reserve
    inputs.vram_free_mb = 24576 - 1024;
    rows.push_back({"a GeForce box is bound by its sessions", inputs, 7, "gpu_sessions"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.sessions_free = 8;
    inputs.vram_free_mb = 1500;  // 1500 / 400: 3
    rows.push_back({"a co-tenant's VRAM leaves room for three", inputs, 3, "vram"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.cpu_load_others = 15;  // one core left: 2 jobs
    rows.push_back({"a busy CPU leaves room for two", inputs, 2, "cpu"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.bandwidth_mbps = 59;  // 59 / 20: 2
    rows.push_back({"a slow link leaves room for two", inputs, 2, "bw"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.disk_gb = 3;
    rows.push_back({"a full disk leaves room for none", inputs, 0, "disk"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.ram_mb = 1024;
    rows.push_back({"little RAM leaves room for two", inputs, 2, "ram"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.configured_max = 4;
    rows.push_back({"a configured maximum binds below every resource", inputs, 4, "config"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.probe_ok = false;
    rows.push_back({"a GPU the probe refused carries nothing", inputs, 0, "gpu"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.sessions_free = 3;
    inputs.vram_free_mb = 1200;  // also 3: the sessions, first in the order, are named
    rows.push_back({"a tie names the first limiter in the order", inputs, 3, "gpu_sessions"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.sessions_free = 8;
    inputs.costs.sessions = 4;  // four renditions encoded at once
    rows.push_back(
        {"a job of four sessions at once halves the sessions' bound", inputs, 2, "gpu_sessions"});
  }
  {
    ConcurrencyInputs inputs = RoomyBox();
    inputs.sessions_free = -2;  // other users hold more than the cap less the reserve
    rows.push_back({"sessions overdrawn by others leave room for none", inputs, 0, "gpu_sessions"});
  }
  return rows;
}

TEST(ResolveConcurrency, EachRowGivesTheConcurrencyAndTheLimiterWorkedOutByHand) {
  for (const Row& row : Rows()) {
    SCOPED_TRACE(row.what);
    const Concurrency concurrency = ResolveConcurrency(row.inputs);
    EXPECT_EQ(concurrency.value, row.concurrency);
    EXPECT_EQ(concurrency.bound_by, row.bound_by);
  }
}

TEST(ResolveConcurrency, EveryLimiterIsReportedWithNoBoundWhereItSetsNone) {
  const Concurrency concurrency = ResolveConcurrency(RoomyBox());
  const std::vector<Limiter> expected = {{"gpu", std::nullopt},
                                         {"gpu_sessions", std::nullopt},
                                         {"vram", std::nullopt},
                                         {"cpu", 32},
                                         {"ram", 64},
                                         {"disk", 100},
                                         {"bw", 50},
                                         {"config", std::nullopt}};
  EXPECT_EQ(concurrency.limiters, expected);
}

TEST(ResolveConcurrency, CostsOfZeroEverywhereCarryNothingRatherThanWithoutBound) {
  ConcurrencyInputs inputs = RoomyBox();
  inputs.costs = {0, 0, 0, 0, 0, 0};
  const Concurrency concurrency = ResolveConcurrency(inputs);
  EXPECT_EQ(concurrency.value, 0);
  EXPECT_EQ(concurrency.bound_by, "config");
}

TEST(ParseConcurrencyHint, ReadsAutoAsWhatTheResourcesAllow) {
  const Result<std::optional<std::int64_t>> hint = ParseConcurrencyHint("auto");
  ASSERT_TRUE(hint.ok()) << hint.error_message();
  EXPECT_EQ(*hint, std::nullopt);
}

TEST(ParseConcurrencyHint, ReadsAWholeNumberOfJobsFromZeroToTheLargest) {
  for (const auto& [text, jobs] : std::vector<std::pair<std::string, std::int64_t>>{
           {"0", 0}, {"1", 1}, {"4", 4}, {"007", 7}, {"100000", kMaxConcurrencyHint}}) {
    const Result<std::optional<std::int64_t>> hint = ParseConcurrencyHint(text);
    ASSERT_TRUE(hint.ok()) << text << ": " << hint.error_message();
    EXPECT_EQ(*hint, jobs) << text;
  }
}

TEST(ParseConcurrencyHint, RefusesAnythingButAutoOrDigitsWithinTheRange) {
  for (const std::string text : {"", "100001", "999999", "-1", "+1", " 1", "1 ", "1.5", "two",
                                 "AUTO", "auto ", "0x10", "99999999999999999999"}) {
    const Result<std::optional<std::int64_t>> hint = ParseConcurrencyHint(text);
    ASSERT_FALSE(hint.ok()) << text;
    EXPECT_EQ(hint.error_code(), ErrorCode::kInvalidInput) << text;
  }
}

TEST(ParseConcurrencyHint, NamesWhatItRefusedAndWhatItTakes) {
  EXPECT_EQ(ParseConcurrencyHint("lots").error_message(),
            "\"lots\" is not a whole number from 0 to 100000, nor auto");
}

}  // namespace
}  // namespace mc::worker
