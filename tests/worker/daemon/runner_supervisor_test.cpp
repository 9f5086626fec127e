// The runner's supervisor: a runner that dies is started again after a pause that grows, and
// Stop ends the runner and everything of its session.
#include "worker/daemon/runner_supervisor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <future>
#include <thread>

#include "support/temp_dir.h"

namespace mc::worker {
namespace {

using namespace std::chrono_literals;

int LineCount(const std::filesystem::path& file) {
  std::ifstream in(file);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST(RunnerSupervisor, ARunnerThatDiesIsStartedAgainWithTheIdAndServerArguments) {
  mc::testing::TempDir dir;
  const auto log = dir.path() / "starts";
  // The runner's own arguments follow the command: "--id ID server".
  // A dead runner's IPC socket is removed before each start, and each end is told.
  const auto stale = dir.Write("runner.sock", "");
  std::atomic<int> ended = 0;
  RunnerSupervisor supervisor(
      {.command = {"/bin/sh", "-c", "echo \"$1 $2 $3\" >> " + log.string() + "; exit 1", "runner"},
       .id = "gpu-0",
       .first_pause = 20ms,
       .most_pause = 80ms,
       .stale_files = {stale.string()},
       .ended = [&ended] { ++ended; }});
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (LineCount(log) < 3 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(10ms);
  supervisor.Stop();
  EXPECT_GE(LineCount(log), 3);
  std::ifstream in(log);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "--id gpu-0 server");
  EXPECT_GE(ended, 2);
  EXPECT_FALSE(std::filesystem::exists(stale));
}

TEST(RunnerSupervisor, StopEndsTheRunnerAndWhatItLeftInItsSession) {
  mc::testing::TempDir dir;
  const auto pid_file = dir.path() / "child.pid";
  // The runner leaves a child behind, as the real runner leaves its ffmpeg.
  RunnerSupervisor supervisor(
      {.command = {"/bin/sh", "-c", "sleep 60 & echo $! > " + pid_file.string() + "; wait"},
       .id = "gpu-0"});
  pid_t child = 0;
  for (int i = 0; i < 300 && child == 0; ++i) {
    std::ifstream in(pid_file);
    in >> child;
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GT(child, 0);
  EXPECT_EQ(supervisor.starts(), 1);
  supervisor.Stop(2s);
  std::this_thread::sleep_for(100ms);
  std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
  std::string pid, name, state;
  stat >> pid >> name >> state;
  EXPECT_TRUE(!stat || state == "Z") << "the runner's child still runs";
  EXPECT_EQ(supervisor.pid(), 0);
}

// A stop that comes while the first runner is being started (systemctl stop during the worker's
// start) ends that runner too. It once found no runner yet, signalled none, and then waited for
// the runner that started a moment later to end by itself.
TEST(RunnerSupervisor, AStopThatComesWhileTheFirstRunnerStartsEndsItAtOnce) {
  std::promise<void> starting;
  std::atomic<bool> told = false;
  // The runner lives 5 s unless stopped. The supervisor pauses just before its first spawn, long
  // enough for the stop to come in between.
  RunnerSupervisor supervisor(
      {.command = {"/bin/sh", "-c", "exec sleep 5"}, .id = "gpu-0", .starting = [&] {
         if (told.exchange(true)) return;
         starting.set_value();
         std::this_thread::sleep_for(300ms);
       }});
  starting.get_future().wait();
  const auto asked = std::chrono::steady_clock::now();
  supervisor.Stop(2s);
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 2s)
      << "the stop waited for a runner it did not signal";
  EXPECT_EQ(supervisor.starts(), 1);
  EXPECT_EQ(supervisor.pid(), 0);
}

TEST(RunnerSupervisor, ARunnerDiesWithAWorkerThatIsKilled) {
  mc::testing::TempDir dir;
  const auto pid_file = dir.path() / "runner.pid";
  const pid_t worker = fork();
  if (worker == 0) {
    RunnerSupervisor supervisor(
        {.command = {"/bin/sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 60"},
         .id = "gpu-0"});
    pause();
    _exit(0);
  }
  pid_t runner = 0;
  for (int i = 0; i < 300 && runner == 0; ++i) {
    std::ifstream in(pid_file);
    in >> runner;
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GT(runner, 0);
  kill(worker, SIGKILL);
  waitpid(worker, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(runner) + "/stat");
    std::string pid, name, state;
    stat >> pid >> name >> state;
    gone = !stat || state == "Z";
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(gone) << "the runner outlived its worker";
}

}  // namespace
}  // namespace mc::worker
