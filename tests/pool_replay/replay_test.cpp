// The record of a real pool_e2e run (data/pool-e2e-record.jsonl: the real PeerTube, runners and
// three workers on the stand-in GPU, a burst of three uploads) replayed: in the simulator, with
// the same promotions and demotions in the same order, each within a cycle; and strictly, the
// recorded cycles fed to the policy alone giving exactly the recorded decisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/read_file.h"
#include "pool/simulator.h"
#include "pool_replay/comparison.h"
#include "pool_replay/replay_inputs.h"
#include "pool_replay/strict_replay.h"
#include "pool_service/run_record.h"

namespace mc::pool_replay {
namespace {

pool_service::RunRecord RealRecord() {
  const std::string path = std::string(POOL_REPLAY_DATA_DIR) + "/pool-e2e-record.jsonl";
  Result<std::string> text = ReadFileText(path);
  EXPECT_TRUE(text) << text.error();
  Result<pool_service::RunRecord> record = pool_service::ParseRunRecord(text ? *text : "", path);
  EXPECT_TRUE(record) << record.error();
  return record ? std::move(*record) : pool_service::RunRecord{};
}

Comparison Replay(const pool_service::RunRecord& record) {
  Result<ReplayInputs> inputs = DeriveInputs(record);
  EXPECT_TRUE(inputs) << inputs.error();
  if (!inputs) return {};
  const pool::SimResult result = pool::Simulate(inputs->trace, inputs->workers, inputs->options);
  return Compare(RecordedEvents(record), SimulatedEvents(result), record.policy.cycle.count());
}

int Count(const std::vector<DecisionEvent>& events, const std::string& what) {
  return static_cast<int>(std::count_if(events.begin(), events.end(),
                                        [&](const DecisionEvent& e) { return e.what == what; }));
}

TEST(Replay, TheRealRunPromotedAndDemotedWorkers) {
  const pool_service::RunRecord record = RealRecord();
  EXPECT_EQ(record.policy.cycle, pool::Seconds(3));
  const std::vector<DecisionEvent> events = RecordedEvents(record);
  // The service's first promotion (min_active), at least one for the burst, and demotions.
  EXPECT_GE(Count(events, "promotion"), 2);
  EXPECT_GE(Count(events, "demotion"), 1);
}

TEST(Replay, TheSimulatorIsGivenTheRunsJobsWorkersAndFaults) {
  const pool_service::RunRecord record = RealRecord();
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error();
  ASSERT_EQ(inputs->workers.size(), 3u);
  EXPECT_EQ(inputs->workers[0].name, "e2e:gpu0");
  // Every job of the burst: the run's PeerTube listed 24 completed, of which the queue showed
  // 11 pending; the others were taken between two reads, and their workers' documents name them.
  EXPECT_EQ(record.jobs.size(), 11u);
  EXPECT_EQ(inputs->trace.jobs.size(), 24u);
  // Each runs as long as, and on the worker that, its worker's documents say.
  EXPECT_TRUE(
      std::all_of(inputs->trace.jobs.begin(), inputs->trace.jobs.end(),
                  [](const pool::TraceJob& job) { return job.run_s > 0 && !job.worker.empty(); }));
  // The worker stopped for a while is unreadable for a spell; the one whose GPU failed has it
  // gone.
  int unreadable = 0, gpu = 0;
  for (const pool::SimWorkerSpec& spec : inputs->workers) {
    if (!spec.failure) continue;
    unreadable += spec.failure->kind == pool::FailureKind::kUnreadable;
    gpu += spec.failure->kind == pool::FailureKind::kGpuUnavailable;
  }
  EXPECT_EQ(unreadable, 1);
  EXPECT_EQ(gpu, 1);
  EXPECT_TRUE(inputs->options.start_as_service);
  EXPECT_EQ(inputs->options.config.cycle, pool::Seconds(3));
}

TEST(Replay, TheSimulatedRunMakesTheRealRunsPromotionsAndDemotionsEachWithinACycle) {
  const Comparison comparison = Replay(RealRecord());
  EXPECT_TRUE(comparison.agrees) << ComparisonTable(comparison);
  EXPECT_GE(comparison.rows.size(), 3u);
}

TEST(Replay, AnotherPolicyReplayedAgainstTheRecordDisagrees) {
  pool_service::RunRecord record = RealRecord();
  // Windows twice as long: the burst's promotion comes later than the real one, or never.
  record.policy.hysteresis.up_windows *= 4;
  const Comparison comparison = Replay(record);
  EXPECT_FALSE(comparison.agrees) << ComparisonTable(comparison);
  EXPECT_FALSE(comparison.first_disagreement.empty());
}

TEST(Replay, TheRecordedCyclesFedToThePolicyAloneGiveExactlyTheRecordedDecisions) {
  const pool_service::RunRecord record = RealRecord();
  Result<StrictResult> result = StrictReplay(record, record.policy);
  ASSERT_TRUE(result) << result.error();
  EXPECT_TRUE(result->agrees) << result->first_disagreement;
  EXPECT_EQ(result->cycles, static_cast<int>(record.cycles.size()));
  EXPECT_GT(result->actions, 0);
}

TEST(Replay, TheStrictReplayNamesTheCycleOfADecisionTheRecordChanged) {
  pool_service::RunRecord record = RealRecord();
  // The first promotion of the burst is recorded for another worker.
  std::size_t changed = 0;
  for (std::size_t c = 0; c < record.cycles.size() && !changed; ++c) {
    for (pool::Action& action : record.cycles[c].actions) {
      if (action.reason != pool::ReasonCode::kPromoted) continue;
      action.worker = action.worker == "e2e:gpu2" ? "e2e:gpu1" : "e2e:gpu2";
      changed = c + 1;
      break;
    }
  }
  ASSERT_GT(changed, 0u);
  Result<StrictResult> result = StrictReplay(record, record.policy);
  ASSERT_TRUE(result) << result.error();
  EXPECT_FALSE(result->agrees);
  EXPECT_EQ(
      result->first_disagreement.rfind(
          "cycle " + std::to_string(changed) + " (line " + std::to_string(changed + 1) + ", ", 0),
      0u)
      << result->first_disagreement;
  EXPECT_NE(result->first_disagreement.find(": recorded enable"), std::string::npos)
      << result->first_disagreement;
}

}  // namespace
}  // namespace mc::pool_replay
