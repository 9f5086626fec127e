// The scale-up rules: two consecutive 45 s windows at P >= 0.6, the highest-weight SPARE or
// WARM worker first, promotions 30 s apart, and only for a worker whose probe is fresh and
// green.
#include <gtest/gtest.h>

#include "policy_fixture.h"
#include "pool/policy/pressure.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

// One ACTIVE worker of two slots and two SPARE ones: P = pending / 4 or oldest age / 900 s.
PolicyRun SmallPool() {
  PolicyRun run;
  run.Add(SpareWorker("active"), ManagerState::kActive);
  run.Add(SpareWorker("spare-a"));
  run.Add(SpareWorker("spare-b"));
  return run;
}

TEST(PressureIndex, IsTheLargerOfDepthOverTwoWavesAndAgeOverFifteenMinutes) {
  const PressureConfig config;
  EXPECT_DOUBLE_EQ(PressureIndex(3, 4, Seconds(0), config), 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(PressureIndex(1, 4, Seconds(450), config), 0.5);
  EXPECT_DOUBLE_EQ(PressureIndex(100, 4, Seconds(0), config), 1.0);
  EXPECT_DOUBLE_EQ(PressureIndex(0, 4, Seconds(5000), config), 0.0);
  EXPECT_DOUBLE_EQ(PressureIndex(1, 0, Seconds(0), config), 1.0);
}

TEST(ScaleUp, PressureAt059ForAnHourPromotesNobody) {
  PolicyRun run = SmallPool();
  run.Pending(1, Job(720, Seconds(531)));
  run.RunFor(Hours(1));
  EXPECT_NEAR(run.last.pressure, 0.59, 1e-9);
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kPressureBelowUp)) << run.Reasons();
}

TEST(ScaleUp, PressureAt060PromotesOnlyAfterTwoWindowsOf45Seconds) {
  PolicyRun run = SmallPool();
  run.Pending(1, Job(720, Seconds(540)));
  run.RunFor(Seconds(90));  // cycles at 0, 15, ..., 75 s: 75 s sustained
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0);
  EXPECT_TRUE(run.Said(ReasonCode::kPressureNotSustained)) << run.Reasons();
  run.Step();  // 90 s
  EXPECT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kPromoted));
}

TEST(ScaleUp, ADipBelowTheThresholdStartsTheWindowsAgain) {
  PolicyRun run = SmallPool();
  run.Pending(3);  // P 0.75
  run.RunFor(Seconds(60));
  run.Pending(1);  // P 0.25
  run.Step();
  run.Pending(3);
  run.RunFor(Seconds(90));  // 75 s sustained at the last cycle
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0) << run.Reasons();
  run.Step();
  EXPECT_EQ(run.Count(ActionKind::kEnable), 1) << run.Reasons();
}

TEST(ScaleUp, APromotion29SecondsAfterTheLastWaits) {
  PolicyRun run = SmallPool();
  run.config.cycle = Seconds(1);
  run.Pending(40);  // P stays at 1 even with every worker ACTIVE
  run.RunFor(Seconds(91));
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1);
  run.RunFor(Seconds(29));
  EXPECT_EQ(run.Count(ActionKind::kEnable), 1);
  EXPECT_TRUE(run.Said(ReasonCode::kPromotionSpacing)) << run.Reasons();
  run.Step();  // 30 s after the last
  EXPECT_EQ(run.Count(ActionKind::kEnable), 2) << run.Reasons();
}

TEST(ScaleUp, PromotesTheHighestWeightSpareFirst) {
  PolicyRun run = SmallPool();
  WorkerRecord& fast = run.pool.workers[2];  // spare-b
  fast.weights[Index(JobClass::kS)] = ClassWeight{1.6, 10};
  run.Pending(4);
  run.RunFor(Seconds(105));
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1);
  EXPECT_EQ(run.all_actions.back().worker, "spare-b");
  EXPECT_EQ(run.StateOf("spare-b"), ManagerState::kActive);
  EXPECT_EQ(run.StateOf("spare-a"), ManagerState::kSpare);
}

TEST(ScaleUp, AProbeFiveMinutesOldBlocksPromotionAndIsAskedFor) {
  PolicyRun run;
  run.Add(SpareWorker("active"), ManagerState::kActive);
  run.Add(SpareWorker("stale")).probe_age = Minutes(5);
  run.Pending(4);
  run.RunFor(Seconds(90));
  run.Status("stale").probe_age = Minutes(5);  // the fixture's probe answered; undo it
  run.last = Decide(run.pool, run.signals, run.now, run.config);
  EXPECT_TRUE(std::none_of(run.last.actions.begin(), run.last.actions.end(),
                           [](const Action& a) { return a.kind == ActionKind::kEnable; }));
  EXPECT_TRUE(run.Said(ReasonCode::kProbeStale)) << run.Reasons();
  EXPECT_TRUE(run.Said(ReasonCode::kProbeRequested));
}

TEST(ScaleUp, ARedProbeBlocksPromotion) {
  PolicyRun run;
  run.Add(SpareWorker("active"), ManagerState::kActive);
  run.Add(SpareWorker("red")).probe_ok = false;
  run.Pending(4);
  run.RunFor(Minutes(5));
  EXPECT_EQ(run.Count(ActionKind::kEnable), 0);
  EXPECT_EQ(run.StateOf("red"), ManagerState::kSpare);
  EXPECT_TRUE(run.Said(ReasonCode::kProbeRed)) << run.Reasons();
}

TEST(ScaleUp, AStaleCandidateIsPassedOverForAFreshOne) {
  PolicyRun run = SmallPool();
  run.pool.workers[1].weights[Index(JobClass::kS)] = ClassWeight{2.0, 10};  // spare-a, best
  run.Status("spare-a").probe_age = Minutes(9);
  run.config.cycle = Seconds(1);
  run.Pending(4);
  run.RunFor(Seconds(91));
  ASSERT_EQ(run.Count(ActionKind::kEnable), 1);
  EXPECT_EQ(run.StateOf("spare-b"), ManagerState::kActive);
}

TEST(ScaleUp, BelowMinActiveTheFirstWorkerIsPromotedWithoutPressure) {
  PolicyRun run;
  run.Add(SpareWorker("a"));
  run.Step();
  EXPECT_EQ(run.StateOf("a"), ManagerState::kActive);
  EXPECT_TRUE(run.Said(ReasonCode::kBelowMinActive)) << run.Reasons();
}

TEST(ScaleUp, BelowMinActiveWithNobodyToPromoteSaysSo) {
  PolicyRun run;
  run.Add(SpareWorker("red")).probe_ok = false;
  run.Step();
  EXPECT_EQ(run.StateOf("red"), ManagerState::kSpare);
  EXPECT_TRUE(run.Said(ReasonCode::kNoCandidate)) << run.Reasons();
  EXPECT_NE(run.Reasons().find("to reach min_active"), std::string::npos);
}

TEST(ScaleUp, TheSameInputsGiveTheSameDecision) {
  PolicyRun run = SmallPool();
  run.Pending(6);
  run.RunFor(Seconds(90));
  const Decision a = Decide(run.pool, run.signals, run.now, run.config);
  const Decision b = Decide(run.pool, run.signals, run.now, run.config);
  ASSERT_EQ(a.actions.size(), b.actions.size());
  ASSERT_EQ(a.reasons.size(), b.reasons.size());
  for (std::size_t i = 0; i < a.reasons.size(); ++i)
    EXPECT_EQ(a.reasons[i].text, b.reasons[i].text);
  EXPECT_EQ(a.pressure, b.pressure);
}

}  // namespace
}  // namespace mc::pool
