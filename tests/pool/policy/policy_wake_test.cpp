// The Wake-on-LAN tier: only at P >= 0.8 for 5 minutes with no SPARE or WARM worker left;
// at most 2 wakes at once, 3 minutes apart, 6 a day a box; never a box on battery.
#include <gtest/gtest.h>

#include "policy_fixture.h"

namespace mc::pool {
namespace {

using testing::PolicyRun;
using testing::SpareWorker;

WorkerStatus ColdBox(const std::string& name) {
  WorkerStatus status = SpareWorker(name);
  status.readable = false;
  status.wakeable = true;
  return status;
}

PolicyRun FullPool(int cold_boxes) {
  PolicyRun run;
  run.Add(SpareWorker("active"), ManagerState::kActive);
  for (int i = 0; i < cold_boxes; ++i) {
    run.Add(ColdBox("cold-" + std::to_string(i)), ManagerState::kCold);
  }
  run.Pending(50);
  return run;
}

TEST(Wake, OnlyAfterFiveMinutesAtPressure08) {
  PolicyRun run = FullPool(1);
  run.RunFor(Minutes(5));
  EXPECT_EQ(run.Count(ActionKind::kWake), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeNotSustained)) << run.Reasons();
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kWake), 1) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kWoken));
}

TEST(Wake, NotWhileASpareWorkerIsLeft) {
  PolicyRun run = FullPool(1);
  run.Add(SpareWorker("spare"));
  for (int cycle = 0; cycle < 80; ++cycle) {
    run.Status("spare").probe_age = Minutes(9);  // asked to probe, it never answers
    run.Step();
  }
  EXPECT_EQ(run.Count(ActionKind::kWake), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeSpareLeft)) << run.Reasons();
}

TEST(Wake, ASpareWhoseProbeFailedDoesNotHoldAWakeBack) {
  PolicyRun run = FullPool(1);
  run.Add(SpareWorker("red")).probe_ok = false;
  run.RunFor(Minutes(5) + Seconds(15));
  EXPECT_EQ(run.Count(ActionKind::kWake), 1) << run.Reasons();
}

TEST(Wake, AtMostTwoAtOnceAndThreeMinutesApart) {
  PolicyRun run = FullPool(4);
  run.RunFor(Minutes(5) + Seconds(15));
  ASSERT_EQ(run.Count(ActionKind::kWake), 1);
  run.RunFor(Minutes(2) + Seconds(45));
  EXPECT_EQ(run.Count(ActionKind::kWake), 1);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeSpacing)) << run.Reasons();
  run.RunFor(Seconds(15));
  EXPECT_EQ(run.Count(ActionKind::kWake), 2);
  run.RunFor(Minutes(5));  // neither has come up
  EXPECT_EQ(run.Count(ActionKind::kWake), 2);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeConcurrent)) << run.Reasons();
}

TEST(Wake, AWokenBoxArrivesAsSpareOnceItsProbeIsGreen) {
  PolicyRun run = FullPool(1);
  run.RunFor(Minutes(5) + Seconds(15));
  ASSERT_EQ(run.Count(ActionKind::kWake), 1);
  run.Status("cold-0").readable = true;
  run.Step();
  EXPECT_NE(run.StateOf("cold-0"), ManagerState::kCold);
  EXPECT_TRUE(run.Said(ReasonCode::kAwake)) << run.Reasons();
}

TEST(Wake, NoMoreThanSixWakesADayPerBox) {
  PolicyRun run = FullPool(1);
  run.config.wake.boot_timeout = Minutes(1);  // every wake fails fast, so it is retried
  run.RunFor(Hours(2));
  EXPECT_EQ(run.Count(ActionKind::kWake), 6);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeDailyCap)) << run.Reasons();
  run.RunFor(Hours(23));
  EXPECT_GT(run.Count(ActionKind::kWake), 6);
}

TEST(Wake, NeverABoxOnBattery) {
  PolicyRun run = FullPool(0);
  WorkerStatus laptop = ColdBox("laptop");
  laptop.on_battery = true;
  run.Add(laptop, ManagerState::kCold);
  run.RunFor(Minutes(30));
  EXPECT_EQ(run.Count(ActionKind::kWake), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kWakeOnBattery)) << run.Reasons();
}

}  // namespace
}  // namespace mc::pool
