#include "worker/status/gather_schedule.h"

#include <gtest/gtest.h>

namespace mc::worker {
namespace {

using std::chrono::seconds;

TEST(GatherSchedule, ReadsTheCountersEveryCounterIntervalBetweenProbes) {
  const WorkerConfig config;  // 300 s probes, 10 s counters, 60 s re-probes
  struct Case {
    seconds since_probe;
    seconds since_counters;
    bool probe_ok;
    bool full_probe;
    seconds after;
  };
  const Case cases[] = {
      {seconds(0), seconds(0), true, false, seconds(10)},
      {seconds(100), seconds(4), true, false, seconds(6)},
      {seconds(100), seconds(30), true, false, seconds(0)},
      // A probe due no later than the counters takes their place.
      {seconds(295), seconds(0), true, true, seconds(5)},
      {seconds(400), seconds(0), true, true, seconds(0)},
      // While the probe refuses the GPU it is probed again every 60 s, not every 300 s.
      {seconds(0), seconds(0), false, false, seconds(10)},
      {seconds(55), seconds(0), false, true, seconds(5)},
      {seconds(61), seconds(9), false, true, seconds(0)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.since_probe.count()) + " s since the probe, " +
                 std::to_string(c.since_counters.count()) + " s since the counters, probe ok " +
                 std::to_string(c.probe_ok));
    const GatherPlan plan = NextGather(c.since_probe, c.since_counters, c.probe_ok, config);
    EXPECT_EQ(plan.full_probe, c.full_probe);
    EXPECT_EQ(plan.after, c.after);
  }
}

TEST(GatherSchedule, FollowsTheConfiguredIntervals) {
  WorkerConfig config;
  config.probe_interval_s = 30;
  config.counter_interval_s = 20;
  config.unavailable_reprobe_s = 5;
  EXPECT_EQ(NextGather(seconds(0), seconds(0), true, config).after, seconds(20));
  EXPECT_TRUE(NextGather(seconds(15), seconds(0), true, config).full_probe);
  EXPECT_EQ(NextGather(seconds(0), seconds(0), false, config).after, seconds(5));
}

}  // namespace
}  // namespace mc::worker
