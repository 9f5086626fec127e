// The page of a simulated run: its workers as the run left them, its decisions, and a history
// bounded however long the run.
#include "pool/page/simulated_page.h"

#include <gtest/gtest.h>

#include "support/markup_balance.h"

namespace mc::pool {
namespace {

SimResult ThreeDays() {
  SimResult result;
  result.jobs = 3;
  result.completed = 3;
  result.simulated_s = 3 * 86400;
  result.workers_at_end = {
      {.name = "rtx-1",
       .manager_state = "ACTIVE",
       .admission_state = "AVAILABLE",
       .concurrency = 2,
       .completed = 3,
       .evidence_ok = true},
      {.name = "qsv-1", .manager_state = "SPARE", .admission_state = "DRAINED", .concurrency = 1}};
  for (double t = 0; t <= result.simulated_s; t += 15) {
    PressurePoint point;
    point.t_s = t;
    point.workers_on = 1;
    point.class_pressure = {0.5, 0, 0, 0};
    result.pressure.push_back(point);
  }
  TimedAction action;
  action.t_s = 30;
  action.action = {.kind = ActionKind::kEnable,
                   .worker = "rtx-1",
                   .concurrency = 2,
                   .reason = ReasonCode::kWorkEnabled};
  action.reason = "rtx-1 enabled: work waits";
  result.actions.push_back(action);
  return result;
}

TEST(SimulatedPage, ShowsTheWorkersAsTheRunLeftThem) {
  std::vector<SimWorkerSpec> specs(2);
  specs[0].name = "rtx-1";
  specs[0].sessions_cap = 8;
  specs[1].name = "qsv-1";
  specs[1].vendor = "intel";
  const PoolPageInput input =
      SimulatedPageInput(ThreeDays(), specs, "burst.jsonl under ours", Seconds(90));
  ASSERT_EQ(input.report.workers.size(), 2u);
  EXPECT_EQ(input.report.workers[0].manager_state, "ACTIVE");
  EXPECT_EQ(input.report.workers[1].vendor, "intel");
  EXPECT_EQ(input.report.capacity_slots, 2);
  ASSERT_EQ(input.report.decisions.size(), 1u);
  EXPECT_EQ(input.report.decisions[0].reason, "rtx-1 enabled: work waits");
  EXPECT_EQ(input.refresh_s, 0);
  EXPECT_DOUBLE_EQ(input.report.wait_target_s, 90);
  const std::string page = PoolPageHtml(input);
  EXPECT_NE(page.find("data-worker=\"qsv-1\""), std::string::npos);
  EXPECT_NE(page.find("burst.jsonl under ours"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(SimulatedPage, BoundsTheHistoryOfALongRun) {
  const PoolPageInput input = SimulatedPageInput(ThreeDays(), {}, "three days", Minutes(2));
  EXPECT_LE(input.history.size(), 1441u);
  EXPECT_GT(input.history.size(), 1000u);
  EXPECT_DOUBLE_EQ(input.history.front().pressure[0], 0.5);
}

TEST(SimulatedPage, AnEmptyRunDraws) {
  const PoolPageInput input = SimulatedPageInput(SimResult{}, {}, "nothing", Seconds(0));
  const std::string page = PoolPageHtml(input);
  EXPECT_NE(page.find("no samples yet"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

}  // namespace
}  // namespace mc::pool
