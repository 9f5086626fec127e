// The frontier: ours once per target wait, read along both axes.
#include "pool/simulator/frontier.h"

#include <gtest/gtest.h>

#include "pool/trace/trace_shapes.h"
#include "source_file.h"

namespace mc::pool {
namespace {

FrontierPoint Point(double target_s, double p95_s, double hours) {
  FrontierPoint point{Seconds(target_s), {}};
  point.result.wait_p95_s = p95_s;
  point.result.worker_hours = hours;
  return point;
}

TEST(TargetWaits, ReadsACommaSeparatedListOfDurations) {
  Result<std::vector<Duration>> waits = ParseTargetWaits("30s, 1m,2m,300");
  ASSERT_TRUE(waits) << waits.error_message();
  EXPECT_EQ(*waits, (std::vector<Duration>{Seconds(30), Minutes(1), Minutes(2), Minutes(5)}));
}

TEST(TargetWaits, ABadItemIsNamedWithTheFormToUse) {
  Result<std::vector<Duration>> waits = ParseTargetWaits("30s,2x");
  ASSERT_FALSE(waits);
  EXPECT_NE(waits.error_message().find("\"2x\" is not a duration"), std::string::npos)
      << waits.error_message();
  EXPECT_NE(waits.error_message().find("as in 30s,1m,2m,5m"), std::string::npos);
  EXPECT_FALSE(ParseTargetWaits(""));
  EXPECT_FALSE(ParseTargetWaits("1m,"));
  EXPECT_FALSE(ParseTargetWaits("-5s"));
}

TEST(Frontier, IsReadAtABaselinesWaitAndAtItsHours) {
  const std::vector<FrontierPoint> frontier = {Point(0, 14, 8.4), Point(60, 40, 8.1),
                                               Point(300, 90, 7.9)};
  EXPECT_EQ(HoursAtWait(frontier, 45), 8.1);
  EXPECT_EQ(HoursAtWait(frontier, 100), 7.9);
  EXPECT_FALSE(HoursAtWait(frontier, 10));
  EXPECT_EQ(WaitAtHours(frontier, 8.2), 40);
  EXPECT_EQ(WaitAtHours(frontier, 9), 14);
  EXPECT_FALSE(WaitAtHours(frontier, 7.5));
}

TEST(Frontier, ALongerTargetWaitTradesWaitForWorkerHoursOnTheWeekday) {
  Result<std::vector<SimWorkerSpec>> workers =
      ParseWorkers(testing::SourceFile("bench/pool/pool_traces/workers.yaml"), "workers.yaml");
  ASSERT_TRUE(workers) << workers.error_message();
  const std::vector<FrontierPoint> frontier = SimulateFrontier(
      GenerateTrace(TraceShape::kWeekday), *workers, SimOptions{}, {Seconds(0), Minutes(5)});
  ASSERT_EQ(frontier.size(), 2u);
  EXPECT_EQ(frontier[0].target_wait, Seconds(0));
  EXPECT_LT(frontier[0].result.wait_p95_s, frontier[1].result.wait_p95_s);
  EXPECT_GT(frontier[0].result.worker_hours, frontier[1].result.worker_hours);
  EXPECT_EQ(frontier[0].result.interrupted + frontier[1].result.interrupted, 0);
}

}  // namespace
}  // namespace mc::pool
