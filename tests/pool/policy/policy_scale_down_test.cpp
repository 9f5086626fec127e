// The scale-down rules: P <= 0.15 for 20 minutes and the worker idle for 15, the lowest
// weight first, never below min_active, always as a drain; and the hold when the queue
// signal is lost.
#include <gtest/gtest.h>

#include "policy_fixture.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

PolicyRun ThreeActive() {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("b"), ManagerState::kActive);
  run.Add(SpareWorker("c"), ManagerState::kActive);
  return run;
}

TEST(ScaleDown, LowPressureFor20MinutesDemotesOneIdleWorker) {
  PolicyRun run = ThreeActive();
  run.RunFor(Minutes(20));  // the last cycle is at 19m45s
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kDemotionNotSustained)) << run.Reasons();
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kDrain), 1) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kDemoted));
}

TEST(ScaleDown, ADemotedWorkerDrainsThenRestsAsSpare) {
  PolicyRun run = ThreeActive();
  run.RunFor(Minutes(20) + Seconds(15));
  const std::string worker = run.all_actions.back().worker;
  EXPECT_EQ(run.StateOf(worker), ManagerState::kDraining);
  run.Step();
  EXPECT_EQ(run.StateOf(worker), ManagerState::kSpare);
  EXPECT_TRUE(run.Said(ReasonCode::kDrained)) << run.Reasons();
}

TEST(ScaleDown, AWorkerIdleFor14MinutesIsNotDemoted) {
  PolicyRun run = ThreeActive();
  for (WorkerStatus& status : run.signals.workers) status.active_jobs = 1;
  run.RunFor(Minutes(10));
  for (WorkerStatus& status : run.signals.workers) status.active_jobs = 0;
  run.RunFor(Minutes(14));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kDemotionWaitsIdle)) << run.Reasons();
  run.RunFor(Minutes(1) + Seconds(15));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 1);
}

TEST(ScaleDown, TheLowestWeightIdleWorkerGoesFirst) {
  PolicyRun run = ThreeActive();
  for (WorkerRecord& record : run.pool.workers) {
    for (ClassWeight& weight : record.weights) weight = ClassWeight{1.5, 20};
  }
  for (ClassWeight& weight : run.pool.workers[1].weights) weight = ClassWeight{0.5, 20};
  run.RunFor(Minutes(20) + Seconds(15));
  ASSERT_EQ(run.Count(ActionKind::kDrain), 1);
  EXPECT_EQ(run.all_actions.back().worker, "b");
}

TEST(ScaleDown, AtEqualWeightTheLowerDownloadRateGoesFirst) {
  PolicyRun run = ThreeActive();
  run.Status("c").download_mbps = 20;
  run.RunFor(Minutes(20) + Seconds(15));
  ASSERT_EQ(run.Count(ActionKind::kDrain), 1);
  EXPECT_EQ(run.all_actions.back().worker, "c");
}

TEST(ScaleDown, NeverBelowMinActive) {
  PolicyRun run = ThreeActive();
  run.config.hysteresis.min_active = 2;
  run.RunFor(Hours(3));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 1);
  EXPECT_TRUE(run.Said(ReasonCode::kMinActive)) << run.Reasons();
}

TEST(ScaleDown, AWorkerWithOneActiveJobIsNeverDemotedToCold) {
  PolicyRun run;
  run.config.wake.sleep_after = Minutes(30);
  run.config.hysteresis.min_active = 0;
  WorkerStatus& busy = run.Add(SpareWorker("busy"), ManagerState::kActive);
  busy.active_jobs = 1;
  busy.wakeable = true;
  run.RunFor(Hours(6));
  EXPECT_EQ(run.StateOf("busy"), ManagerState::kActive);
  EXPECT_EQ(run.Count(ActionKind::kSuspend), 0);
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
}

TEST(ScaleDown, ASpareBoxWithAJobIsNeverSuspended) {
  PolicyRun run;
  run.config.wake.sleep_after = Minutes(30);
  run.Add(SpareWorker("active"), ManagerState::kActive);
  WorkerStatus& spare = run.Add(SpareWorker("spare"));
  spare.wakeable = true;
  spare.active_jobs = 1;  // the status lags behind a drain
  run.RunFor(Hours(2));
  EXPECT_EQ(run.Count(ActionKind::kSuspend), 0);
  spare.active_jobs = 0;
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kSuspend), 1);
  EXPECT_EQ(run.StateOf("spare"), ManagerState::kCold);
  EXPECT_TRUE(run.Said(ReasonCode::kSuspended)) << run.Reasons();
}

TEST(ScaleDown, ABoxOnBatteryIsNeverSuspended) {
  PolicyRun run;
  run.config.wake.sleep_after = Minutes(30);
  run.Add(SpareWorker("active"), ManagerState::kActive);
  WorkerStatus& laptop = run.Add(SpareWorker("laptop"));
  laptop.wakeable = true;
  laptop.on_battery = true;
  run.RunFor(Hours(2));
  EXPECT_EQ(run.Count(ActionKind::kSuspend), 0);
}

TEST(LostSignals, TheQueueSignalLostFor10MinutesScalesNothingDown) {
  PolicyRun run = ThreeActive();
  run.RunFor(Minutes(19));
  run.signals.queue.read_ok = false;
  run.RunFor(Minutes(10));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kQueueLost)) << run.Reasons();
  EXPECT_NE(run.last.reasons.front().text.find("failing for 9m45s"), std::string::npos)
      << run.Reasons();
  // Back: the low window starts again rather than counting the blind minutes.
  run.signals.queue.read_ok = true;
  run.RunFor(Minutes(19));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  run.RunFor(Minutes(1) + Seconds(15));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 1);
}

TEST(LostSignals, AStaleJobListHoldsToo) {
  PolicyRun run = ThreeActive();
  run.signals.queue.data_age = Minutes(3);
  run.RunFor(Hours(1));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kQueueLost));
  EXPECT_NE(run.last.reasons.front().text.find("stale"), std::string::npos);
}

TEST(LostSignals, AnUnreadableWorkerCountsAsNoCapacity) {
  PolicyRun run;
  run.Add(SpareWorker("a", 4), ManagerState::kActive);
  run.Add(SpareWorker("b", 4), ManagerState::kActive).readable = false;
  run.Pending(4);
  run.Step();
  EXPECT_EQ(run.last.capacity_slots, 4);
  EXPECT_DOUBLE_EQ(run.last.pressure, 0.5);
  EXPECT_TRUE(run.Said(ReasonCode::kStatusUnreadable)) << run.Reasons();
}

TEST(LostSignals, AnUnreadableWorkerIsNeverDemoted) {
  PolicyRun run = ThreeActive();
  run.Status("a").readable = false;
  run.Status("b").active_jobs = 1;
  run.Status("c").active_jobs = 1;
  run.RunFor(Hours(2));
  EXPECT_EQ(run.Count(ActionKind::kDrain), 0);
  EXPECT_EQ(run.StateOf("a"), ManagerState::kActive);
}

}  // namespace
}  // namespace mc::pool
