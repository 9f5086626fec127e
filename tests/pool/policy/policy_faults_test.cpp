// The failure fast path: GPU_UNAVAILABLE, thermal throttling and a job without hardware
// evidence drain a worker at once, whatever the pressure; repeated faults send it to
// COOLDOWN.
#include <gtest/gtest.h>

#include "policy_fixture.h"

namespace mc::pool {
namespace {

using testing::PolicyRun;
using testing::SpareWorker;

TEST(Faults, AFailedEvidenceCheckDrainsAtOnceBypassingHysteresis) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  WorkerStatus& b = run.Add(SpareWorker("b"), ManagerState::kActive);
  b.active_jobs = 1;
  run.Pending(30);  // P = 1: hysteresis would never scale down now
  run.Step();
  b.jobs_failed = 1;
  b.hw_evidence_ok = false;
  run.Step();
  EXPECT_EQ(run.StateOf("b"), ManagerState::kDraining);
  ASSERT_EQ(run.Count(ActionKind::kDrain), 1);
  EXPECT_EQ(run.all_actions.back().worker, "b");
  EXPECT_TRUE(run.Said(ReasonCode::kFaultDrain)) << run.Reasons();
  EXPECT_NE(run.Reasons().find("without hardware evidence"), std::string::npos);
}

TEST(Faults, GpuUnavailableDrainsAtOnceAndTheJobFinishes) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  WorkerStatus& b = run.Add(SpareWorker("b"), ManagerState::kActive);
  b.active_jobs = 1;
  b.state = AdmissionState::kGpuUnavailable;
  run.Step();
  EXPECT_EQ(run.StateOf("b"), ManagerState::kDraining);
  run.RunFor(Minutes(5));
  EXPECT_EQ(run.StateOf("b"), ManagerState::kDraining);  // its job is still running
  b.active_jobs = 0;
  run.Step();
  EXPECT_EQ(run.StateOf("b"), ManagerState::kSpare);
  EXPECT_EQ(run.Count(ActionKind::kDrain), 1);
}

TEST(Faults, ThermalThrottlingDrains) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("hot"), ManagerState::kActive).state = AdmissionState::kThermalThrottled;
  run.Step();
  EXPECT_NE(run.StateOf("hot"), ManagerState::kActive);
  EXPECT_NE(run.Reasons().find("THERMAL_THROTTLED"), std::string::npos) << run.Reasons();
}

TEST(Faults, AnOfflineWorkerIsDrainedAsAFaultWithItsReason) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  WorkerStatus& gone = run.Add(SpareWorker("gone"), ManagerState::kActive);
  gone.active_jobs = 1;
  gone.state = AdmissionState::kOffline;
  run.Step();
  EXPECT_EQ(run.StateOf("gone"), ManagerState::kDraining);
  EXPECT_TRUE(run.Said(ReasonCode::kFaultDrain)) << run.Reasons();
  EXPECT_NE(run.Reasons().find("OFFLINE"), std::string::npos) << run.Reasons();
  run.Pending(20);
  run.RunFor(Minutes(5));
  EXPECT_NE(run.StateOf("gone"), ManagerState::kActive) << "an OFFLINE worker was enabled again";
}

TEST(Faults, AFaultyWorkerIsNotPromotedAgain) {
  PolicyRun run;
  run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Add(SpareWorker("broken")).state = AdmissionState::kGpuUnavailable;
  run.Pending(20);
  run.RunFor(Minutes(10));
  EXPECT_EQ(run.StateOf("broken"), ManagerState::kSpare);
  EXPECT_TRUE(run.Said(ReasonCode::kNoCandidate)) << run.Reasons();
}

TEST(Faults, ThreeFaultsWithinAnHourSendAWorkerToCooldown) {
  PolicyRun run;
  run.config.hysteresis.min_active = 2;  // so that "b" is promoted again after each fault
  run.Add(SpareWorker("a"), ManagerState::kActive);
  WorkerStatus& b = run.Add(SpareWorker("b"), ManagerState::kActive);
  run.Step();
  for (int fault = 1; fault <= 3; ++fault) {
    while (run.StateOf("b") != ManagerState::kActive) run.Step();
    b.jobs_failed = fault;
    b.hw_evidence_ok = false;
    run.Step();
  }
  EXPECT_EQ(run.StateOf("b"), ManagerState::kCooldown);
  EXPECT_TRUE(run.Said(ReasonCode::kCooldown)) << run.Reasons();
  run.RunFor(Minutes(29));
  EXPECT_EQ(run.StateOf("b"), ManagerState::kCooldown);
  run.RunFor(Minutes(2));
  EXPECT_NE(run.StateOf("b"), ManagerState::kCooldown);
}

TEST(Faults, AJobWithoutEvidenceDoesNotTeachTheWeight) {
  PolicyRun run;
  WorkerStatus& a = run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Step();
  a.jobs_completed = 1;
  a.hw_evidence_ok = false;
  a.last_job = LastJob{JobClass::kS, 5000, 40};
  run.Step();
  EXPECT_EQ(run.pool.workers[0].weights[Index(JobClass::kS)].jobs, 0);
}

}  // namespace
}  // namespace mc::pool
