// The day the page draws: samples merged within the resolution, none older than the span, and
// never more than the span holds.
#include "pool/service/pool_history.h"

#include <gtest/gtest.h>

namespace mc::pool {
namespace {

HistorySample At(double t, int pending) {
  HistorySample sample;
  sample.t_s = t;
  sample.pending = pending;
  return sample;
}

TEST(PoolHistory, MergesSamplesWithinTheResolutionKeepingTheMost) {
  PoolHistory history(Hours(24), Minutes(1));
  history.Add(At(0, 3));
  HistorySample later = At(15, 7);
  later.pressure[1] = 0.4;
  later.started_wait_s = 12;
  history.Add(later);
  history.Add(At(30, 1));
  ASSERT_EQ(history.samples().size(), 1u);
  EXPECT_EQ(history.samples()[0].pending, 7);
  EXPECT_DOUBLE_EQ(history.samples()[0].pressure[1], 0.4);
  EXPECT_EQ(history.samples()[0].started_wait_s, 12);
  history.Add(At(60, 2));
  EXPECT_EQ(history.samples().size(), 2u);
}

TEST(PoolHistory, DropsWhatIsOlderThanTheSpan) {
  PoolHistory history(Hours(1), Minutes(1));
  for (int minute = 0; minute <= 120; ++minute) history.Add(At(minute * 60.0, minute));
  EXPECT_GE(history.samples().front().t_s, 3600);
  EXPECT_LE(history.samples().size(), history.capacity());
}

TEST(PoolHistory, HoldsADayOfFifteenSecondCyclesInAMinuteEach) {
  PoolHistory history;
  for (int cycle = 0; cycle < 3 * 24 * 240; ++cycle) history.Add(At(cycle * 15.0, cycle % 9));
  EXPECT_LE(history.samples().size(), 1441u);
  EXPECT_GE(history.samples().size(), 1439u);
}

TEST(PoolHistory, IgnoresASampleFromBeforeTheLast) {
  PoolHistory history;
  history.Add(At(600, 1));
  history.Add(At(0, 9));
  ASSERT_EQ(history.samples().size(), 1u);
  EXPECT_EQ(history.samples()[0].pending, 1);
}

}  // namespace
}  // namespace mc::pool
