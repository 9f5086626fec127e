#include "common/kube/retry_after.h"

#include <gtest/gtest.h>

#include "common/kube/http_date.h"

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

TEST(RetryAfter, EachOfTheThreeDateFormsIsRead) {
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", kNow), seconds(10));   // IMF-fixdate
  EXPECT_EQ(ParseRetryAfter("Sunday, 06-Nov-94 08:49:47 GMT", kNow), seconds(10));  // RFC 850
  EXPECT_EQ(ParseRetryAfter("Sun Nov  6 08:49:47 1994", kNow), seconds(10));        // asctime
  EXPECT_EQ(ParseRetryAfter("Sun Nov 06 08:49:47 1994", kNow), seconds(10));
}

TEST(HttpDate, TheFormsGiveTheSameSecond) {
  EXPECT_EQ(ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", kNow), 784111777);
  EXPECT_EQ(ParseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", kNow), 784111777);
  EXPECT_EQ(ParseHttpDate("Sun Nov  6 08:49:37 1994", kNow), 784111777);
  EXPECT_EQ(ParseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT", kNow), 0);
  EXPECT_EQ(ParseHttpDate("Wed, 31 Dec 1969 23:59:59 GMT", kNow), -1);
  EXPECT_EQ(ParseHttpDate("Tue, 29 Feb 2000 12:00:00 GMT", kNow), 951825600);
  EXPECT_EQ(ParseHttpDate("Thu, 03 Dec 2026 15:00:00 GMT", kNow), 1796310000);
}

TEST(HttpDate, ATwoDigitYearIsTheNearestNotMoreThanFiftyYearsAhead) {
  // From 1994, "44" is 2044 (50 years on) and "45" is 1945.
  EXPECT_EQ(ParseHttpDate("Sunday, 06-Nov-44 08:49:37 GMT", kNow),
            ParseHttpDate("Sun, 06 Nov 2044 08:49:37 GMT", kNow));
  EXPECT_EQ(ParseHttpDate("Tuesday, 06-Nov-45 08:49:37 GMT", kNow),
            ParseHttpDate("Tue, 06 Nov 1945 08:49:37 GMT", kNow));
  EXPECT_TRUE(ParseHttpDate("Sun, 06 Nov 2044 08:49:37 GMT", kNow));
}

TEST(HttpDate, ABrokenDateIsNone) {
  for (const char* text : {
           "Sun, 06 Nov 1994 08:49:37",       // no zone
           "Sun, 06 Nov 1994 08:49:37 UTC",   // not GMT
           "Sun, 6 Nov 1994 08:49:37 GMT",    // one-digit day
           "Sun, 06 nov 1994 08:49:37 GMT",   // the month's case
           "sun, 06 Nov 1994 08:49:37 GMT",   // the day's case
           "Mon, 06 Nov 1994 08:49:37 GMT",   // not that date's week day
           "Sun, 31 Nov 1994 08:49:37 GMT",   // no 31st of November
           "Tue, 29 Feb 1994 08:49:37 GMT",   // no leap year
           "Sun, 06 Nov 1994 24:00:00 GMT",   // no hour 24
           "Sun, 06 Nov 1994 08:60:00 GMT",   // no minute 60
           "Sun, 06 Nov 1994 08:49:37 GMT ",  // trailing garbage (trimmed by Retry-After only)
           "Sun, 06 Nov 1994 08:49:37 GMTX",
           "Sun,  06 Nov 1994 08:49:37 GMT",
           "Sun, 06 Nov 94 08:49:37 GMT",       // a two-digit year in the IMF form
           "Sun, 06-Nov-94 08:49:37 GMT",       // RFC 850 with a short day name
           "Sunday, 06-Nov-1994 08:49:37 GMT",  // RFC 850 with four digits
           "Sunday, 06 Nov 1994 08:49:37 GMT",  // a long day name in the IMF form
           "Sun Nov  6 08:49:37 1994 GMT",      // asctime has no zone
           "Sun Nov 6 08:49:37 1994",           // asctime pads the day
           "Sun Nov  6 08:49:37 94",
           "Sun, 06 Nov 1994 08:49:3 GMT",
           "Sun, 06 Nov 1994 08:4a:37 GMT",
           "Sun, 0",
           "",
       }) {
    EXPECT_EQ(ParseHttpDate(text, kNow), std::nullopt) << text;
  }
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
