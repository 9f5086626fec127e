#include "probe/query/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "probe/query/child_failure.h"

namespace mc::probe {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<std::string> Shell(const std::string& script) { return {"/bin/sh", "-c", script}; }

TEST(ChildProcess, AChildsOutputAndExitStatusAreCollected) {
  auto outcomes = RunChildren({Shell("echo report; echo diagnostics >&2; exit 3")}, 5s);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(outcomes[0].code, 3);
  EXPECT_EQ(outcomes[0].out, "report\n");
  EXPECT_EQ(outcomes[0].err, "diagnostics\n");
}

TEST(ChildProcess, AChildThatHangsIsKilledAtTheDeadline) {
  const auto start = Clock::now();
  auto outcomes = RunChildren({Shell("echo started >&2; sleep 30")}, 300ms);
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_EQ(outcomes[0].err, "started\n");
}

TEST(ChildProcess, AGrandchildHoldingThePipeIsKilledWithItsParent) {
  const auto start = Clock::now();
  auto outcomes = RunChildren({Shell("sleep 30 & exit 0")}, 300ms);
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kTimedOut);
}

TEST(ChildProcess, AChildKilledByASignalIsReportedAsSuch) {
  auto outcomes = RunChildren({Shell("kill -SEGV $$")}, 5s);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kSignalled);
  EXPECT_EQ(outcomes[0].code, SIGSEGV);
}

TEST(ChildProcess, AProgramThatDoesNotExistIsNotStarted) {
  auto outcomes = RunChildren({{"/nonexistent/query"}}, 5s);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kNotStarted);
  EXPECT_EQ(DescribeChildFailure(outcomes[0], 5s),
            "the query could not start: No such file or directory");
}

TEST(ChildProcess, ChildrenRunAtOnceSoOneHangDoesNotDelayTheOthers) {
  const auto start = Clock::now();
  auto outcomes =
      RunChildren({Shell("sleep 30"), Shell("sleep 0.2; echo a"), Shell("sleep 0.2; echo b")}, 1s);
  const auto took = Clock::now() - start;
  EXPECT_LT(took, 3s);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_EQ(outcomes[1].out, "a\n");
  EXPECT_EQ(outcomes[2].out, "b\n");
}

TEST(ChildProcess, OutputBeyondTheLimitIsDropped) {
  auto outcomes = RunChildren({Shell("head -c 100000 /dev/zero")}, 5s, 1000);
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(outcomes[0].out.size(), 1000u);
}

TEST(ChildFailure, StderrIsQuotedWordForWordOnOneLine) {
  ChildOutcome outcome{ChildOutcome::Kind::kExited, 1, "",
                       "libva error: x\n  vaInitialize failed: unknown libva error\n"};
  EXPECT_EQ(DescribeChildFailure(outcome, 20s),
            "libva error: x; vaInitialize failed: unknown libva error");
}

TEST(ChildFailure, ATimeoutNamesTheDeadline) {
  ChildOutcome outcome{ChildOutcome::Kind::kTimedOut, 0, "", ""};
  EXPECT_EQ(DescribeChildFailure(outcome, 20s),
            "the query ran past its deadline of 20 s and was killed");
}

TEST(ChildFailure, ACrashNamesTheSignal) {
  ChildOutcome outcome{ChildOutcome::Kind::kSignalled, SIGSEGV, "", "partial\n"};
  EXPECT_EQ(DescribeChildFailure(outcome, 20s),
            "the query was killed by signal 11 (Segmentation fault): partial");
}

TEST(ChildFailure, ASilentFailureSaysItsStatus) {
  ChildOutcome outcome{ChildOutcome::Kind::kExited, 4, "", ""};
  EXPECT_EQ(DescribeChildFailure(outcome, 20s),
            "the query exited with status 4 and wrote no error");
}

TEST(ChildFailure, ASuccessIsNoFailure) {
  ChildOutcome outcome{ChildOutcome::Kind::kExited, 0, "{}", "noise"};
  EXPECT_EQ(DescribeChildFailure(outcome, 20s), std::nullopt);
}

}  // namespace
}  // namespace mc::probe
