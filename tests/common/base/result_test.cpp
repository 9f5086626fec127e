#include "common/base/result.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

TEST(ErrorWithContext, PutsTheContextAndAColonBeforeTheMessage) {
  EXPECT_EQ(NotFound("no such file").WithContext("the token").message, "the token: no such file");
}

TEST(ErrorWithContext, KeepsTheCode) {
  EXPECT_EQ(Conflict("stale").WithContext("update").code, ErrorCode::kConflict);
}

TEST(ErrorWithContext, KeepsTheWaitBeforeARetry) {
  Error busy = Unavailable("busy");
  busy.retry_after = std::chrono::seconds(7);
  const Error told = busy.WithContext("GET /jobs");
  EXPECT_EQ(told.retry_after, std::chrono::seconds(7));
  EXPECT_EQ(told.code, ErrorCode::kUnavailable);
}

TEST(ErrorWithContext, LeavesTheErrorItWasAskedOfAsItWas) {
  const Error original = InvalidInput("bad");
  const Error told = original.WithContext("outer");
  EXPECT_EQ(original.message, "bad");
  EXPECT_EQ(told.message, "outer: bad");
}

TEST(ErrorWithContext, NestsOutwards) {
  EXPECT_EQ(Internal("inner").WithContext("middle").WithContext("outer").message,
            "outer: middle: inner");
}

}  // namespace
}  // namespace mc
