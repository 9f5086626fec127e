// The work-aware profile: a burst is met in one cycle, a job that fits a free slot brings in
// nobody, a worker the others can do without is drained (never interrupted), and a box is woken
// only for work that outlasts the guard.
#include <gtest/gtest.h>

#include "policy_fixture.h"
#include "pool/policy/config_yaml.h"
#include "pool/policy/work.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

PolicyRun WorkAwareRun() {
  PolicyRun run;
  run.config.profile = PolicyProfile::kWorkAware;
  return run;
}

// A pool asked to start every job as soon as it can: no wait for a slot that frees.
PolicyRun ImpatientRun() {
  PolicyRun run = WorkAwareRun();
  run.config.target_wait = Seconds(0);
  return run;
}

int CountFor(const PolicyRun& run, ActionKind kind, ReasonCode reason) {
  return static_cast<int>(
      std::count_if(run.all_actions.begin(), run.all_actions.end(),
                    [&](const Action& a) { return a.kind == kind && a.reason == reason; }));
}

TEST(WorkAware, ABurstEnablesEverySpareItNeedsInOneCycle) {
  PolicyRun run = ImpatientRun();
  run.Add(SpareWorker("active"), ManagerState::kActive).active_jobs = 2;
  for (int i = 0; i < 5; ++i) run.Add(SpareWorker("spare-" + std::to_string(i)));
  run.Pending(20, Job(1080, Seconds(0), Minutes(5)));
  run.Step();
  EXPECT_EQ(CountFor(run, ActionKind::kEnable, ReasonCode::kWorkEnabled), 5) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kWorkEnabled));
}

TEST(WorkAware, ASmallQueueEnablesOnlyTheSlotsItNeeds) {
  PolicyRun run = ImpatientRun();
  run.Add(SpareWorker("active"), ManagerState::kActive).active_jobs = 2;
  for (int i = 0; i < 5; ++i) run.Add(SpareWorker("spare-" + std::to_string(i)));
  run.Pending(3, Job(720, Seconds(0), Seconds(30)));
  run.Step();
  // Three jobs, two slots a worker: two workers.
  EXPECT_EQ(run.Count(ActionKind::kEnable), 2) << run.Reasons();
}

TEST(WorkAware, WithEnableAfterAJobWaitsThatLongForASlotBeforeAWorkerIsBroughtIn) {
  PolicyRun run = ImpatientRun();
  run.config.sizing.enable_after = Seconds(30);
  run.Add(SpareWorker("active"), ManagerState::kActive).active_jobs = 2;
  run.Add(SpareWorker("spare"));
  run.Pending(1, Job(720, Seconds(20), Seconds(30)));
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0) << run.Reasons();
  run.Pending(1, Job(720, Seconds(30), Seconds(30)));
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
}

TEST(WorkAware, AJobWaitsForASlotThatFreesWithinTheTargetWaitBeforeAWorkerIsBroughtIn) {
  PolicyRun run = WorkAwareRun();
  run.config.target_wait = Minutes(2);
  run.Add(SpareWorker("active"), ManagerState::kActive).active_jobs = 2;
  run.Add(SpareWorker("spare"));
  // 2 minutes, less a 15 s cycle and 10 s for the enabled worker to ask: 95 s.
  run.Pending(1, Job(720, Seconds(90), Seconds(30)));
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0) << run.Reasons();
  run.Pending(1, Job(720, Seconds(95), Seconds(30)));
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
}

TEST(WorkAware, AJobPastTheTargetWaitWithNoWorkerLeftIsSaidWithTheReason) {
  PolicyRun run = WorkAwareRun();
  run.Add(SpareWorker("only"), ManagerState::kActive).active_jobs = 2;
  run.Pending(1, Job(720, Minutes(3), Seconds(30)));
  run.Step();
  EXPECT_TRUE(run.Said(ReasonCode::kTargetWaitMissed)) << run.Reasons();
  EXPECT_NE(run.Reasons().find("waited 3m00s, past the target wait 2m00s: no SPARE or WARM "
                               "worker is left to enable"),
            std::string::npos)
      << run.Reasons();
}

TEST(WorkAware, AJobWithinTheTargetWaitIsNeverCalledLate) {
  PolicyRun run = WorkAwareRun();
  run.Add(SpareWorker("only"), ManagerState::kActive).active_jobs = 2;
  run.Pending(1, Job(720, Seconds(100), Seconds(30)));
  run.Step();
  EXPECT_FALSE(run.Said(ReasonCode::kTargetWaitMissed)) << run.Reasons();
}

TEST(WorkAware, AJobThatFitsAFreeSlotEnablesNobody) {
  PolicyRun run = WorkAwareRun();
  run.Add(SpareWorker("active"), ManagerState::kActive);
  run.Add(SpareWorker("spare"));
  run.Pending(1, Job(720, Seconds(0), Seconds(60)));
  run.RunFor(Minutes(2));
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0) << run.Reasons();
}

TEST(WorkAware, IdleWorkersTheOthersCanDoWithoutAreDrainedAfterTheGrace) {
  PolicyRun run = WorkAwareRun();
  run.config.sizing.idle_before_release = Seconds(30);
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("b"), ManagerState::kActive);
  run.Add(SpareWorker("c"), ManagerState::kActive);
  run.Step();  // idle clocks start
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0) << "drained before the grace";
  run.RunFor(Seconds(30));
  EXPECT_EQ(CountFor(run, ActionKind::kDrain, ReasonCode::kWorkReleased), 2) << run.Reasons();
  int active = 0;
  for (const WorkerRecord& record : run.pool.workers)
    active += record.state == ManagerState::kActive;
  EXPECT_EQ(active, 1);  // min_active
}

TEST(WorkAware, ByDefaultAnIdleWorkerTheOthersCanDoWithoutGoesAtTheFirstCycle) {
  PolicyRun run = WorkAwareRun();
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("b"), ManagerState::kActive);
  run.Step();
  EXPECT_EQ(CountFor(run, ActionKind::kDrain, ReasonCode::kWorkReleased), 1) << run.Reasons();
}

TEST(WorkAware, AFullWorkerIsKeptAndAPartlyBusyOneOnlyDrainsNeverSuspends) {
  PolicyRun run = WorkAwareRun();
  run.config.hysteresis.min_active = 0;
  run.Add(SpareWorker("full"), ManagerState::kActive).active_jobs = 2;
  run.Add(SpareWorker("half"), ManagerState::kActive).active_jobs = 1;
  run.Step();
  EXPECT_EQ(run.StateOf("full"), ManagerState::kActive);
  EXPECT_EQ(run.StateOf("half"), ManagerState::kDraining) << run.Reasons();
  EXPECT_EQ(run.Count(ActionKind::kSuspend), 0);
  EXPECT_NE(run.Reasons().find("finishing its 1 job(s)"), std::string::npos) << run.Reasons();
}

TEST(WorkAware, AWorkerIsKeptWhileThePendingJobsNeedItsFreeSlots) {
  PolicyRun run = WorkAwareRun();
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("b"), ManagerState::kActive);
  run.Pending(3, Job(720, Seconds(0), Seconds(30)));
  run.RunFor(Minutes(2));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0) << run.Reasons();
}

TEST(WorkAware, ABoxIsWokenOnlyForWorkThatOutlastsTheGuard) {
  const auto run_with = [](Duration video) {
    PolicyRun run = WorkAwareRun();
    run.Add(SpareWorker("a"), ManagerState::kActive).active_jobs = 2;
    WorkerStatus box = SpareWorker("box");
    box.readable = false;
    box.wakeable = true;
    run.Add(box, ManagerState::kCold);
    run.Pending(4, Job(1080, Seconds(0), video));
    run.Step();
    return run;
  };
  // 4 jobs of 10 s at a rate of 12x: seconds of work. 4 of 2 hours: hours.
  EXPECT_EQ(run_with(Seconds(10)).Count(ActionKind::kWake), 0);
  const PolicyRun long_work = run_with(Hours(2));
  EXPECT_EQ(long_work.Count(ActionKind::kWake), 1) << long_work.Reasons();
  EXPECT_TRUE(long_work.Said(ReasonCode::kWorkWoken));
}

TEST(WorkAware, AStaleProbeIsPassedOverAndAskedFor) {
  PolicyRun run = ImpatientRun();
  run.Add(SpareWorker("active"), ManagerState::kActive).active_jobs = 2;
  WorkerStatus& stale = run.Add(SpareWorker("stale"));
  stale.probe_age = Minutes(6);
  stale.realtime_factor_ewma = 9;  // the first candidate, but for its probe
  run.Add(SpareWorker("fresh"));
  run.Pending(2);
  run.Step();
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
  EXPECT_EQ(run.last.actions.back().worker, "fresh");
  EXPECT_EQ(run.Count(ActionKind::kProbe), 1);
}

TEST(Work, AnUploadsFirstJobReleasesItsRenditionsAndALowerOneOnlyItsHls) {
  JobShape root;
  root.resolution = 1080;
  root.source_resolution = 1080;
  root.duration = Seconds(100);
  const WorkToCome from_root = ChildrenOf("vod-web-video-transcoding", root);
  EXPECT_EQ(from_root.jobs, 1 + 2 * 4);  // its HLS, and web and HLS at 720, 480, 360, 240
  EXPECT_NEAR(ReferenceEncodeSeconds(root), 100, 1e-9);
  JobShape lower = root;
  lower.resolution = 720;
  EXPECT_EQ(ChildrenOf("vod-web-video-transcoding", lower).jobs, 1);
  EXPECT_EQ(ChildrenOf("vod-hls-transcoding", root).jobs, 0);
}

TEST(WorkAwareConfig, TheProfileIsReadByNameAndAnUnknownOneIsAnError) {
  Result<PoolConfig> design = ParsePoolConfig("profile: design\n", "pool.yaml");
  ASSERT_TRUE(design) << design.error_message();
  EXPECT_EQ(design->profile, PolicyProfile::kDesign);
  EXPECT_EQ(PoolConfig{}.profile, PolicyProfile::kWorkAware);
  Result<PoolConfig> unknown = ParsePoolConfig("profile: fast\n", "pool.yaml");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error_message(), "pool.yaml: profile: expected work-aware or design");
  Result<PoolConfig> sizing = ParsePoolConfig("sizing:\n  target_drain: 0s\n", "pool.yaml");
  ASSERT_FALSE(sizing);
  EXPECT_NE(sizing.error_message().find("sizing.target_drain"), std::string::npos)
      << sizing.error_message();
}

TEST(WorkAwareConfig, TheWrittenConfigurationReadsBackToTheSameProfileAndSizing) {
  PoolConfig config;
  config.profile = PolicyProfile::kDesign;
  config.sizing.target_drain = Seconds(42);
  Result<PoolConfig> back = ParsePoolConfig(PoolConfigToYaml(config), "written");
  ASSERT_TRUE(back) << back.error_message();
  EXPECT_EQ(back->profile, PolicyProfile::kDesign);
  EXPECT_EQ(back->sizing.target_drain, Seconds(42));
}

}  // namespace
}  // namespace mc::pool
