// Jobs only one slow-starting SPARE worker can serve: AV1 sources, one worker that decodes AV1.
// A worker that cannot serve the waiting class is never promoted for it. A worker still
// starting is capacity to come: no other is promoted while it starts, unless P to come still
// calls for more.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "policy_fixture.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

PendingJob OldAv1SourceJob(Duration age) {
  PendingJob job = Job(1080, age);
  job.shape.av1_source = true;
  return job;
}

// One ACTIVE worker and four SPARE ones without AV1 decode, and `av1_workers` SPARE ones with
// it. `jobs` AV1-source jobs wait, 10 minutes old: P 0.67 by age alone.
PolicyRun Av1Pool(int av1_workers, int jobs) {
  PolicyRun run;
  run.Add(SpareWorker("no-av1"), ManagerState::kActive);
  for (int k = 1; k <= 4; ++k) run.Add(SpareWorker("t4-" + std::to_string(k)));
  for (int k = 1; k <= av1_workers; ++k) {
    run.Add(SpareWorker("av1-" + std::to_string(k))).capabilities.av1_dec = true;
  }
  run.Pending(jobs, OldAv1SourceJob(Minutes(10)));
  return run;
}

// Steps through `span`. An enabled worker stays DRAINED for `startup` after its enable, as a
// service started from nothing does.
void RunWithStartup(PolicyRun& run, Duration span, Duration startup) {
  std::vector<std::pair<std::string, TimePoint>> enabled_at;
  const TimePoint end = run.now + span;
  while (run.now < end) {
    const TimePoint at = run.now;
    run.Step();
    for (const Action& action : run.last.actions) {
      if (action.kind == ActionKind::kEnable) enabled_at.emplace_back(action.worker, at);
    }
    for (const auto& [name, since] : enabled_at) {
      if (run.now - since < startup) run.Status(name).state = AdmissionState::kDrained;
    }
  }
}

std::vector<std::string> EnabledWorkers(const PolicyRun& run) {
  std::vector<std::string> enabled;
  for (const Action& action : run.all_actions) {
    if (action.kind == ActionKind::kEnable) enabled.push_back(action.worker);
  }
  return enabled;
}

TEST(StartingCapacity, TheDesignPromotesOnlyTheAv1WorkerAndHoldsWhileItStarts) {
  PolicyRun run = Av1Pool(1, 2);
  RunWithStartup(run, Minutes(6), Minutes(10));
  EXPECT_EQ(EnabledWorkers(run), std::vector<std::string>{"av1-1"}) << run.Reasons();
  EXPECT_EQ(run.StateOf("av1-1"), ManagerState::kActive);
  EXPECT_TRUE(run.Said(ReasonCode::kClassStarting)) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kCapacityStarting)) << run.Reasons();
  EXPECT_FALSE(run.Said(ReasonCode::kNoCandidate)) << run.Reasons();
}

TEST(StartingCapacity, TheDesignPromotesAnotherAv1WorkerWhenTheStartingOneBringsTooLittle) {
  PolicyRun run = Av1Pool(2, 8);  // 8 jobs against 2 slots to come: P to come 1
  RunWithStartup(run, Minutes(6), Minutes(10));
  EXPECT_EQ(EnabledWorkers(run), (std::vector<std::string>{"av1-1", "av1-2"})) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kNoCandidate)) << run.Reasons();
}

TEST(StartingCapacity, TheWorkAwareProfilePromotesNoWorkerThatCannotServeTheJobs) {
  PolicyRun run = Av1Pool(2, 8);
  run.config.profile = PolicyProfile::kWorkAware;
  RunWithStartup(run, Minutes(6), Minutes(10));
  EXPECT_EQ(EnabledWorkers(run), (std::vector<std::string>{"av1-1", "av1-2"})) << run.Reasons();
}

TEST(StartingCapacity, TheWorkAwareProfileHoldsWhileTheAv1WorkerStarts) {
  PolicyRun run = Av1Pool(1, 2);
  run.config.profile = PolicyProfile::kWorkAware;
  RunWithStartup(run, Minutes(6), Minutes(10));
  EXPECT_EQ(EnabledWorkers(run), std::vector<std::string>{"av1-1"}) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kClassStarting)) << run.Reasons();
}

}  // namespace
}  // namespace mc::pool
