#include "kube/retry_after.h"

#include <gtest/gtest.h>

namespace mc::kube {
namespace {

using std::chrono::seconds;

const auto kNow =
    std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT

TEST(RetryAfter, SecondsAreReadAsTheyAre) {
  EXPECT_EQ(ParseRetryAfter("1", kNow), seconds(1));
  EXPECT_EQ(ParseRetryAfter(" 120 ", kNow), seconds(120));
  EXPECT_EQ(ParseRetryAfter("0", kNow), seconds(0));
}

TEST(RetryAfter, AnHttpDateIsMeasuredFromNow) {
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", kNow), seconds(30));
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:00:00 GMT", kNow), seconds(0));
}

TEST(RetryAfter, AnythingElseIsNoAnswer) {
  EXPECT_EQ(ParseRetryAfter("", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("soon", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("5s", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("-1", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("99999999999999999999999", kNow), std::nullopt);
}

}  // namespace
}  // namespace mc::kube
