// RunCommand with real programs: Debian's true, false, sleep and sh.
#include "pool/service/command_runner.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <thread>

namespace mc::pool {
namespace {

using std::chrono::milliseconds;
using Kind = CommandOutcome::Kind;

CommandOutcome RunFor(std::vector<std::string> argv, milliseconds deadline = milliseconds(10000)) {
  return RunCommand({.argv = std::move(argv), .deadline = deadline});
}

// Gone is whether `pid` has ended (or is a zombie waiting for init), within a second.
bool Gone(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!stat || !std::getline(stat, line)) return true;
    const std::size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return false;
}

TEST(RunCommand, TrueSucceeds) {
  const CommandOutcome outcome = RunFor({"/bin/true"});
  EXPECT_EQ(outcome.kind, Kind::kExited);
  EXPECT_EQ(outcome.code, 0);
  EXPECT_TRUE(outcome.Succeeded());
}

TEST(RunCommand, FalseExitsOne) {
  const CommandOutcome outcome = RunFor({"/bin/false"});
  EXPECT_EQ(outcome.kind, Kind::kExited);
  EXPECT_EQ(outcome.code, 1);
  EXPECT_FALSE(outcome.Succeeded());
  EXPECT_EQ(DescribeOutcome(outcome, {}), "exited 1");
}

TEST(RunCommand, AProgramWithoutASlashIsLookedUpOnPath) {
  EXPECT_TRUE(RunFor({"true"}).Succeeded());
}

TEST(RunCommand, AMissingProgramIsNotStartedWithEnoent) {
  const CommandOutcome outcome = RunFor({"/nonexistent/wakeonlan", "aa:bb:cc:dd:ee:ff"});
  EXPECT_EQ(outcome.kind, Kind::kNotStarted);
  EXPECT_EQ(outcome.code, ENOENT);
  EXPECT_EQ(DescribeOutcome(outcome, {}), "not started: No such file or directory");
  EXPECT_EQ(RunFor({"no-such-program-on-path"}).code, ENOENT);
}

TEST(RunCommand, StdoutAndStderrAreCapturedTogetherInTheOrderWritten) {
  const CommandOutcome outcome =
      RunFor({"/bin/sh", "-c", "echo one; echo two >&2; echo three; exit 3"});
  EXPECT_EQ(outcome.kind, Kind::kExited);
  EXPECT_EQ(outcome.code, 3);
  EXPECT_EQ(outcome.output, "one\ntwo\nthree\n");
  EXPECT_FALSE(outcome.truncated);
}

TEST(RunCommand, OnlyTheLastBytesOfALongOutputAreKept) {
  const CommandOutcome outcome = RunCommand(
      {.argv = {"/bin/sh", "-c", "i=0; while [ $i -lt 5000 ]; do echo line$i; i=$((i+1)); done"},
       .max_output = 100});
  EXPECT_TRUE(outcome.Succeeded());
  EXPECT_TRUE(outcome.truncated);
  EXPECT_EQ(outcome.output.size(), 100u);
  EXPECT_TRUE(outcome.output.ends_with("line4998\nline4999\n")) << outcome.output;
}

TEST(RunCommand, TheEnvironmentGetsTheGivenVariablesOnTopOfTheServicesOwn) {
  setenv("MEDIA_POOL_WORKER", "inherited", 1);
  const CommandOutcome outcome =
      RunCommand({.argv = {"/bin/sh", "-c", "echo \"$MEDIA_POOL_WORKER ${PATH:+has-path}\""},
                  .environment = {{"MEDIA_POOL_WORKER", "gpu-box-1:gpu0"}}});
  unsetenv("MEDIA_POOL_WORKER");
  EXPECT_EQ(outcome.output, "gpu-box-1:gpu0 has-path\n");
}

TEST(RunCommand, ACommandPastItsDeadlineIsKilledWithinASecondOfIt) {
  const auto started = std::chrono::steady_clock::now();
  const CommandOutcome outcome = RunFor({"/bin/sleep", "30"}, milliseconds(500));
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(outcome.kind, Kind::kTimedOut);
  EXPECT_GE(took, milliseconds(500));
  EXPECT_LT(took, milliseconds(1500));
  EXPECT_EQ(DescribeOutcome(outcome, {.deadline = milliseconds(500)}),
            "killed after its deadline of 500 ms");
}

TEST(RunCommand, TheDeadlineKillsWhatTheCommandStartedToo) {
  // The shell prints its background child's pid, then waits for it past the deadline.
  const CommandOutcome outcome =
      RunFor({"/bin/sh", "-c", "sleep 30 & echo $!; wait"}, milliseconds(500));
  EXPECT_EQ(outcome.kind, Kind::kTimedOut);
  const pid_t child = static_cast<pid_t>(std::stol(outcome.output));
  EXPECT_TRUE(Gone(child)) << "sleep " << child << " outlived the deadline";
}

TEST(RunCommand, WhatACommandLeftRunningInItsGroupEndsWithIt) {
  const auto started = std::chrono::steady_clock::now();
  const CommandOutcome outcome =
      RunFor({"/bin/sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"}, milliseconds(10000));
  EXPECT_TRUE(outcome.Succeeded());
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(2000));
  const pid_t child = static_cast<pid_t>(std::stol(outcome.output));
  EXPECT_TRUE(Gone(child)) << "sleep " << child << " outlived its command";
}

TEST(RunCommand, AChildThatKeepsThePipeOpenDoesNotHoldTheRunnerPastTheCommand) {
  // The background sleep holds stdout; the command itself ends at once.
  const auto started = std::chrono::steady_clock::now();
  const CommandOutcome outcome = RunFor({"/bin/sh", "-c", "sleep 30 & echo started"});
  EXPECT_TRUE(outcome.Succeeded());
  EXPECT_EQ(outcome.output, "started\n");
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(2000));
}

TEST(RunCommand, ASignalledCommandSaysWhichSignal) {
  const CommandOutcome outcome = RunFor({"/bin/sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(outcome.kind, Kind::kSignalled);
  EXPECT_EQ(outcome.code, SIGTERM);
  EXPECT_EQ(DescribeOutcome(outcome, {}), "killed by signal 15 (Terminated)");
}

TEST(RunCommand, AnEmptyArgvIsNotStarted) { EXPECT_EQ(RunFor({}).kind, Kind::kNotStarted); }

}  // namespace
}  // namespace mc::pool
