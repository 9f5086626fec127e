// The records of real pool_e2e runs (data/: the real PeerTube, runners and three workers on the
// fake GPU, a burst of three uploads; the second with PeerTube's faults) replayed: in the
// simulator, with the same promotions and demotions in the same order, each within a cycle; and
// strictly, the recorded cycles fed to the policy alone giving exactly the recorded decisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "common/base/read_file.h"
#include "pool/replay/comparison.h"
#include "pool/replay/replay_inputs.h"
#include "pool/replay/strict_replay.h"
#include "pool/service/run_record.h"
#include "pool/simulator/simulator.h"

namespace mc::pool {
namespace {

// A burst whose workers failed: one stopped for a while, the other's GPU gone mid-job.
constexpr const char* kWorkerFaults = "pool-e2e-record.jsonl";
// A burst through PeerTube's faults as well: its admin API answering 429 and then 500, and the
// server restarted while a runner's job was under way.
constexpr const char* kPeerTubeFaults = "pool-e2e-peertube-faults-record.jsonl";
// The same through PeerTube's faults, recorded with each pending job's priority and its age
// from when it became pending.
constexpr const char* kPriorities = "pool-e2e-priorities-record.jsonl";
// A run of the work-aware profile whose simulated policy drained another worker than the real
// one, while jobs that worker really ran were still to come.
constexpr const char* kDiverging = "pool-e2e-diverging-record.jsonl";

pool::RunRecord RealRecord(const char* file = kWorkerFaults) {
  const std::string path = std::string(POOL_REPLAY_DATA_DIR) + "/" + file;
  Result<std::string> text = ReadFileText(path);
  EXPECT_TRUE(text) << text.error_message();
  Result<pool::RunRecord> record = pool::ParseRunRecord(text ? *text : "", path);
  EXPECT_TRUE(record) << record.error_message();
  return record ? std::move(*record) : pool::RunRecord{};
}

Comparison Replay(const pool::RunRecord& record) {
  Result<ReplayInputs> inputs = DeriveInputs(record);
  EXPECT_TRUE(inputs) << inputs.error_message();
  if (!inputs) return {};
  const pool::SimResult result = pool::Simulate(inputs->trace, inputs->workers, inputs->options);
  return Compare(RecordedEvents(record), SimulatedEvents(result), record.policy.cycle.count());
}

int Count(const std::vector<DecisionEvent>& events, const std::string& what) {
  return static_cast<int>(std::count_if(events.begin(), events.end(),
                                        [&](const DecisionEvent& e) { return e.what == what; }));
}

TEST(Replay, TheRealRunPromotedAndDemotedWorkers) {
  const pool::RunRecord record = RealRecord();
  EXPECT_EQ(record.policy.cycle, pool::Seconds(3));
  const std::vector<DecisionEvent> events = RecordedEvents(record);
  // The service's first promotion (min_active), at least one for the burst, and demotions.
  EXPECT_GE(Count(events, "promotion"), 2);
  EXPECT_GE(Count(events, "demotion"), 1);
}

TEST(Replay, TheSimulatorIsGivenTheRunsJobsWorkersAndFaults) {
  const pool::RunRecord record = RealRecord();
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error_message();
  ASSERT_EQ(inputs->workers.size(), 3u);
  EXPECT_EQ(inputs->workers[0].name, "e2e:gpu0");
  // Every job of the burst: the run's PeerTube listed 24 completed, of which the queue showed
  // 11 pending; the others were taken between two reads, and their workers' documents name them.
  EXPECT_EQ(record.jobs.size(), 11u);
  EXPECT_EQ(inputs->trace.jobs.size(), 24u);
  // Each runs as long as, and on the worker that, its worker's documents say.
  EXPECT_TRUE(std::all_of(inputs->trace.jobs.begin(), inputs->trace.jobs.end(),
                          [](const pool::TraceJob& job) { return !job.runs.empty(); }));
  // The worker stopped for a while is unreadable for that interval.
  // The one whose GPU failed has it gone.
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

// The restart lost a runner's report of a job it was running: PeerTube held the job as
// running until its stall timeout, then handed it out again. The replay plays both runs, and
// keeps the job off the queue in between, as the real one was.
TEST(Replay, AJobWhoseRunTheRestartLostRunsAgainOnlyWhenPeerTubeHandedItOutAgain) {
  const pool::RunRecord record = RealRecord(kPeerTubeFaults);
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error_message();
  EXPECT_FALSE(inputs->options.queue_outages.empty());
  const auto job = std::find_if(
      inputs->trace.jobs.begin(), inputs->trace.jobs.end(),
      [](const pool::TraceJob& j) { return j.id == "7c5e87d2-92b2-417c-8990-9b11414542af"; });
  ASSERT_NE(job, inputs->trace.jobs.end());
  ASSERT_EQ(job->runs.size(), 2u);
  EXPECT_EQ(job->runs[0].worker, "e2e:gpu1");
  // Aborted about 47 s in; listed pending again at the cycle of 169.2 s.
  EXPECT_NEAR(job->runs[0].again_s, 169.2, 0.1);
  EXPECT_EQ(job->runs[1].again_s, 0);
}

// The record's run, replayed in the simulator and strictly, makes at least `decisions` of the
// real promotions and demotions, each within a cycle, and exactly the recorded ones.
void ExpectBothReplaysAgree(const char* file, std::size_t decisions) {
  const pool::RunRecord record = RealRecord(file);
  const Comparison comparison = Replay(record);
  EXPECT_TRUE(comparison.agrees) << ComparisonTable(comparison);
  EXPECT_GE(comparison.rows.size(), decisions);
  Result<StrictResult> strict = StrictReplay(record, record.policy);
  ASSERT_TRUE(strict) << strict.error_message();
  EXPECT_TRUE(strict->agrees) << strict->first_disagreement;
}

TEST(Replay, TheSimulatedRunThroughPeerTubesFaultsMakesTheRealRunsDecisions) {
  ExpectBothReplaysAgree(kPeerTubeFaults, 2);
}

TEST(Replay, TheSimulatedRunWithPeerTubesPrioritiesMakesTheRealRunsDecisions) {
  ExpectBothReplaysAgree(kPriorities, 3);
}

// The simulation leaves the real run's decisions at its fifth, and the jobs of the worker it
// drained run elsewhere: every job completes, and the policy alone still agrees exactly.
TEST(Replay, ASimulatedRunThatDrainsAnotherWorkerThanTheRealOneStillCompletesEveryJob) {
  const pool::RunRecord record = RealRecord(kDiverging);
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error_message();
  const pool::SimResult result = pool::Simulate(inputs->trace, inputs->workers, inputs->options);
  EXPECT_EQ(result.jobs, 24);
  EXPECT_EQ(result.completed, result.jobs);
  EXPECT_EQ(result.unfinished, 0);
  Result<StrictResult> strict = StrictReplay(record, record.policy);
  ASSERT_TRUE(strict) << strict.error_message();
  EXPECT_TRUE(strict->agrees) << strict->first_disagreement;
}

// PeerTube counted the admin's uploads of the week into each job's priority: the burst's three
// videos' jobs are 101, 102 and 103, and a job taken between two reads goes first.
TEST(Replay, EachJobIsHandedOutInPeerTubesPriorityOrder) {
  const pool::RunRecord record = RealRecord(kPriorities);
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error_message();
  std::set<int> listed;
  for (const pool::RecordedJob& job : record.jobs) {
    ASSERT_TRUE(job.priority) << job.id;
    listed.insert(*job.priority);
  }
  EXPECT_EQ(listed, (std::set<int>{101, 102, 103}));
  for (const pool::TraceJob& job : inputs->trace.jobs) {
    const bool was_listed =
        std::any_of(record.jobs.begin(), record.jobs.end(),
                    [&](const auto& recorded) { return recorded.id == job.id; });
    if (!was_listed) {
      EXPECT_EQ(job.priority, 101) << job.id;
    }
  }
}

// b4c8a1af was taken by e2e:gpu0 before any read listed it, failed there with the GPU, and was
// first listed once back, with the age of its return: it arrives when it was first taken, so
// that its first run can play on e2e:gpu0 before the GPU's fault.
TEST(Replay, AJobTakenBeforeAnyReadListedItArrivesWhenItWasFirstTaken) {
  const pool::RunRecord record = RealRecord(kPriorities);
  Result<ReplayInputs> inputs = DeriveInputs(record);
  ASSERT_TRUE(inputs) << inputs.error_message();
  const auto recorded = std::find_if(record.jobs.begin(), record.jobs.end(), [](const auto& j) {
    return j.id == "b4c8a1af-7bf5-49e9-a3de-3f21f23a21dc";
  });
  ASSERT_NE(recorded, record.jobs.end());
  const auto job = std::find_if(inputs->trace.jobs.begin(), inputs->trace.jobs.end(),
                                [&](const pool::TraceJob& j) { return j.id == recorded->id; });
  ASSERT_NE(job, inputs->trace.jobs.end());
  ASSERT_EQ(job->runs.size(), 2u);
  EXPECT_EQ(job->runs[0].worker, "e2e:gpu0");
  EXPECT_LT(job->at_s + 1, recorded->created_s - inputs->start_s);
}

TEST(Replay, AnotherPolicyReplayedAgainstTheRecordDisagrees) {
  pool::RunRecord record = RealRecord();
  // Windows twice as long: the burst's promotion comes later than the real one, or never.
  record.policy.hysteresis.up_windows *= 4;
  const Comparison comparison = Replay(record);
  EXPECT_FALSE(comparison.agrees) << ComparisonTable(comparison);
  EXPECT_FALSE(comparison.first_disagreement.empty());
}

TEST(Replay, TheRecordedCyclesFedToThePolicyAloneGiveExactlyTheRecordedDecisions) {
  const pool::RunRecord record = RealRecord();
  Result<StrictResult> result = StrictReplay(record, record.policy);
  ASSERT_TRUE(result) << result.error_message();
  EXPECT_TRUE(result->agrees) << result->first_disagreement;
  EXPECT_EQ(result->cycles, static_cast<int>(record.cycles.size()));
  EXPECT_GT(result->actions, 0);
}

TEST(Replay, TheStrictReplayNamesTheCycleOfADecisionTheRecordChanged) {
  pool::RunRecord record = RealRecord();
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
  ASSERT_TRUE(result) << result.error_message();
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
}  // namespace mc::pool
