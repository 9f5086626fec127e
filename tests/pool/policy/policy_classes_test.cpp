// Job classes, their gates, and mixed vendors: a class nobody can serve is reported and not
// counted as demand; an L job pulls in a worker that passes the L gates; AV1 counts only
// workers that state it; NVENC session pressure shifts S and M to VA-API; a disabled
// vendor drains at once.
#include <gtest/gtest.h>

#include "policy_fixture.h"
#include "pool/policy/gates.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

struct ClassCase {
  int resolution;
  int source_resolution;
  int fps;
  double minutes;
  JobClass expected;
};

TEST(JobClasses, FollowResolutionAndDuration) {
  const ClassCase cases[] = {
      {720, 0, 30, 5, JobClass::kS},    {1080, 0, 30, 10, JobClass::kS},
      {1080, 0, 30, 11, JobClass::kM},  {1440, 0, 30, 2, JobClass::kM},
      {2160, 0, 30, 2, JobClass::kL},   {1080, 2160, 30, 2, JobClass::kL},
      {2160, 0, 60, 30, JobClass::kXL}, {2160, 0, 30, 30, JobClass::kL},
      {2160, 0, 60, 5, JobClass::kL},
  };
  for (const ClassCase& c : cases) {
    JobShape shape;
    shape.resolution = c.resolution;
    shape.source_resolution = c.source_resolution;
    shape.fps = c.fps;
    shape.duration = Minutes(c.minutes);
    EXPECT_EQ(ClassifyJob(shape, ClassBounds{}), c.expected)
        << c.resolution << "p from " << c.source_resolution << "p, " << c.minutes << " min";
  }
}

TEST(JobClasses, GatesFollowTheClassThresholds) {
  const GateConfig gates;
  WorkerStatus worker = SpareWorker("w");
  JobNeed large{JobClass::kL, false, false, 2160};
  EXPECT_TRUE(PassesGates(large, worker, 1.0, gates));
  worker.realtime_factor_ewma = 2.9;
  EXPECT_FALSE(PassesGates(large, worker, 1.0, gates));
  worker = SpareWorker("w");
  worker.download_mbps = 49;
  EXPECT_FALSE(PassesGates(large, worker, 1.0, gates));
  worker = SpareWorker("w");
  worker.vram_free_mb = 4000;
  EXPECT_FALSE(PassesGates(large, worker, 1.0, gates));
  worker.vendor = "intel";  // no VRAM floor on VA-API
  EXPECT_TRUE(PassesGates(large, worker, 1.0, gates));
  JobNeed xl{JobClass::kXL, false, false, 2160};
  EXPECT_FALSE(PassesGates(xl, SpareWorker("w"), 0.9, gates));
  EXPECT_TRUE(PassesGates(xl, SpareWorker("w"), 1.0, gates));
  JobNeed medium{JobClass::kM, false, false, 1080};
  worker = SpareWorker("w");
  worker.enc_util_pct = 71;
  EXPECT_FALSE(PassesGates(medium, worker, 1.0, gates));
  worker.enc_util_pct = 70;
  EXPECT_TRUE(PassesGates(medium, worker, 1.0, gates));
}

TEST(JobClasses, AClassNoWorkerCanServeIsReportedAndNotCountedAsDemand) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive).capabilities.max_height = 1080;
  run.Add(SpareWorker("b")).capabilities.max_height = 1080;
  run.Pending(1, Job(2160, Hours(2)));
  run.RunFor(Hours(1));
  EXPECT_EQ(run.last.demand, 0);
  EXPECT_DOUBLE_EQ(run.last.pressure, 0.0);
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kClassUnservable)) << run.Reasons();
}

TEST(JobClasses, AnLJobPromotesASpareThatPassesTheLGates) {
  PolicyRun run;
  run.config.cycle = Seconds(5);
  run.Add(SpareWorker("small"), ManagerState::kActive).realtime_factor_ewma = 1.5;
  WorkerStatus& weak = run.Add(SpareWorker("weak"));
  weak.realtime_factor_ewma = 1.5;
  run.Add(SpareWorker("strong")).realtime_factor_ewma = 8;
  run.pool.workers[1].weights[Index(JobClass::kL)] = ClassWeight{3.0, 10};  // weak, but fast
  run.Pending(1, Job(2160, Minutes(10)));
  run.RunFor(Seconds(95));
  EXPECT_TRUE(run.Said(ReasonCode::kClassGated) || run.Count(ActionKind::kEnable) == 1)
      << run.Reasons();
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
  EXPECT_EQ(run.all_actions.back().worker, "strong");
}

TEST(JobClasses, Av1SourcesCountOnlyWorkersThatDecodeAv1) {
  PolicyRun run;
  run.Add(SpareWorker("no-av1"), ManagerState::kActive);
  run.Add(SpareWorker("av1")).capabilities.av1_dec = true;
  PendingJob job = Job(1080, Minutes(10));
  job.shape.av1_source = true;
  run.Pending(1, job);
  run.config.cycle = Seconds(5);
  run.RunFor(Seconds(95));
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
  EXPECT_EQ(run.all_actions.back().worker, "av1");
}

TEST(JobClasses, Av1OutputWithNoEncoderAnywhereIsUnservable) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive).capabilities.av1_dec = true;
  PendingJob job = Job();
  job.shape.av1_output = true;
  run.Pending(3, job);
  run.Step();
  EXPECT_EQ(run.last.demand, 0);
  EXPECT_TRUE(run.Said(ReasonCode::kClassUnservable));
  EXPECT_NE(run.Reasons().find("AV1 encode"), std::string::npos) << run.Reasons();
}

TEST(Vendors, NvencSessionPressureShiftsSmallJobsToVaapiAndBack) {
  PolicyRun run;
  WorkerStatus& nvidia = run.Add(SpareWorker("nv"), ManagerState::kActive);
  nvidia.sessions_cap = 8;
  nvidia.sessions_active = 7;
  WorkerStatus intel = SpareWorker("qsv");
  intel.vendor = "intel";
  run.Add(intel, ManagerState::kActive);
  run.Step();
  ASSERT_EQ(run.Count(ActionKind::kSetClasses), 1) << run.Reasons();
  EXPECT_EQ(run.all_actions.back().classes, Bit(JobClass::kL) | Bit(JobClass::kXL));
  EXPECT_TRUE(run.Said(ReasonCode::kSessionShift));
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kSetClasses), 1);  // said once, not every cycle
  nvidia.sessions_active = 5;
  run.Step();
  ASSERT_EQ(run.Count(ActionKind::kSetClasses), 2);
  EXPECT_EQ(run.all_actions.back().classes, kEveryClass);
}

// A shifted NVIDIA worker's gate takes no S or M job, so it is no capacity for them: the
// VA-API worker that serves them is not released while they wait, whatever slots the NVIDIA
// worker has free.
TEST(Vendors, AShiftedNvidiaWorkerIsNoCapacityForSmallJobsAndTheVaapiWorkerKeepsThem) {
  PolicyRun run;
  WorkerStatus& nvidia = run.Add(SpareWorker("nv"), ManagerState::kActive);
  nvidia.sessions_cap = 8;
  nvidia.sessions_active = 8;
  nvidia.concurrency = 4;
  WorkerStatus intel = SpareWorker("qsv");
  intel.vendor = "intel";
  run.Add(intel, ManagerState::kActive);
  run.Pending(2, Job());
  run.config.profile = PolicyProfile::kWorkAware;
  run.config.cycle = Seconds(5);
  run.RunFor(Seconds(300));
  ASSERT_EQ(run.Count(ActionKind::kSetClasses), 1) << run.Reasons();
  for (const Action& action : run.all_actions)
    EXPECT_FALSE(action.kind == ActionKind::kDrain && action.worker == "qsv")
        << ReasonRow(action.reason).id << run.Reasons();
  EXPECT_GT(run.last.demand, 0);
}

TEST(Vendors, NoShiftWithoutAVaapiWorker) {
  PolicyRun run;
  WorkerStatus& nvidia = run.Add(SpareWorker("nv"), ManagerState::kActive);
  nvidia.sessions_cap = 8;
  nvidia.sessions_active = 8;
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kSetClasses), 0);
}

TEST(Vendors, VendorDisabledDrainsEveryActiveNvidiaWorkerAtOnce) {
  PolicyRun run;
  run.config.vendors.disabled = {"nvidia"};
  run.Add(SpareWorker("nv-1"), ManagerState::kActive).active_jobs = 2;
  run.Add(SpareWorker("nv-2"), ManagerState::kActive);
  WorkerStatus intel = SpareWorker("qsv");
  intel.vendor = "intel";
  run.Add(intel, ManagerState::kActive);
  run.Add(SpareWorker("nv-spare"));
  run.Pending(30);
  run.Step();
  EXPECT_EQ(run.StateOf("nv-1"), ManagerState::kDraining);
  EXPECT_EQ(run.StateOf("nv-2"), ManagerState::kSpare);  // empty: drained in the same cycle
  EXPECT_EQ(run.StateOf("qsv"), ManagerState::kActive);
  EXPECT_TRUE(run.Said(ReasonCode::kVendorDisabled)) << run.Reasons();
  run.RunFor(Minutes(10));
  EXPECT_NE(run.StateOf("nv-spare"), ManagerState::kActive);
}

}  // namespace
}  // namespace mc::pool
