// The job's ffmpeg under the wrapper: signals from the runner reach it, its stderr passes
// through and is read for the GPU's failures, and it never outlives the runner. The commands
// are small shell scripts standing in for ffmpeg, so each behaviour is exact.
#include "worker/daemon/job_ffmpeg.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "support/temp_dir.h"
#include "worker/daemon/ffmpeg_log.h"

namespace mc::worker {
namespace {

using namespace std::chrono_literals;

// RunInChild runs RunJobFfmpeg in a forked child, as the wrapper process does, and gives the
// child's pid; the child exits with the run's exit code.
pid_t RunInChild(const std::vector<std::string>& argv) {
  const pid_t child = fork();
  if (child == 0) {
    const JobFfmpegRun run = RunJobFfmpeg({.argv = argv, .parent_pid = getppid()});
    _exit(run.exit_code);
  }
  return child;
}

int WaitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool Alive(pid_t pid) { return kill(pid, 0) == 0; }

pid_t ReadPid(const std::filesystem::path& file) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(file);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(10ms);
  }
  return 0;
}

TEST(JobFfmpeg, ASignalTheRunnerSendsTheWrapperReachesFfmpeg) {
  mc::testing::TempDir dir;
  const std::string ready = (dir.path() / "ready").string();
  const pid_t wrapper =
      RunInChild({"/bin/sh", "-c",
                  "trap 'exit 42' TERM; echo $$ > " + ready + "; while :; do sleep 0.05; done"});
  ASSERT_GT(ReadPid(ready), 0);
  kill(wrapper, SIGTERM);
  EXPECT_EQ(WaitExit(wrapper), 42);
}

TEST(JobFfmpeg, FfmpegDiesWithinASecondWhenTheRunnerIsKilled) {
  mc::testing::TempDir dir;
  const std::string pid_file = (dir.path() / "ffmpeg.pid").string();
  // The runner: a process whose child is the wrapper.
  const pid_t runner = fork();
  if (runner == 0) {
    const pid_t wrapper =
        RunInChild({"/bin/sh", "-c", "echo $$ > " + pid_file + "; exec sleep 60"});
    WaitExit(wrapper);
    _exit(0);
  }
  const pid_t ffmpeg = ReadPid(pid_file);
  ASSERT_GT(ffmpeg, 0);
  ASSERT_TRUE(Alive(ffmpeg));
  kill(runner, SIGKILL);
  WaitExit(runner);
  const auto until = std::chrono::steady_clock::now() + 1s;
  while (Alive(ffmpeg) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  // Dead or a zombie that init reaps: either way not running.
  std::ifstream stat("/proc/" + std::to_string(ffmpeg) + "/stat");
  std::string pid, name, state;
  stat >> pid >> name >> state;
  EXPECT_TRUE(!stat || state == "Z") << "ffmpeg " << ffmpeg << " still runs in state " << state;
}

TEST(JobFfmpeg, TheGpusFailureLineIsFoundInWhatPassesThrough) {
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv =
           {"/bin/sh", "-c",
            "printf 'frame=  10 fps=0.0\\r' >&2; "
            "echo '[h264_nvenc @ 0x1] [error] EncodePicture failed!: generic error (20): x' >&2; "
            "exit 1"},
       .parent_pid = getppid(),
       .hardware_components = {"h264_nvenc"}});
  EXPECT_EQ(run.exit_code, 1);
  ASSERT_TRUE(run.gpu_failure);
  EXPECT_NE(run.gpu_failure->find("EncodePicture failed"), std::string::npos);
}

TEST(JobFfmpeg, AnOrdinaryFailureIsNotTheGpus) {
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv = {"/bin/sh", "-c", "echo 'input.mp4: No such file or directory' >&2; exit 1"},
       .parent_pid = getppid()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_FALSE(run.gpu_failure);
}

TEST(JobFfmpeg, AProgramThatCannotStartExits127) {
  const JobFfmpegRun run = RunJobFfmpeg({.argv = {"/nonexistent/ffmpeg"}, .parent_pid = getppid()});
  EXPECT_EQ(run.exit_code, 127);
}

TEST(JobFfmpeg, AFailureLineInARunThatEndsWellIsNoGpuFailure) {
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv = {"/bin/sh", "-c", "echo '[h264 @ 0x1] [error] Failed setup for format cuda' >&2"},
       .parent_pid = getppid()});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_FALSE(run.gpu_failure);
}

// An upload whose title, handler name and chapter title hold the GPU's failure words, one
// after a line break, made by Debian's ffmpeg.
std::string HostileClip(const mc::testing::TempDir& dir) {
  const std::string clip = (dir.path() / "hostile.mp4").string();
  const JobFfmpegRun made = RunJobFfmpeg(
      {.argv = {"/usr/bin/ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                "testsrc2=size=64x64:rate=5", "-t", "1", "-metadata",
                "title=CUDA_ERROR_OUT_OF_MEMORY\n[error] No capable devices found", "-metadata:s:v",
                "handler_name=[h264_nvenc @ 0x1] [error] OpenEncodeSessionEx failed", "-c:v",
                "libx264", clip},
       .parent_pid = getppid()});
  EXPECT_EQ(made.exit_code, 0);
  return clip;
}

TEST(JobFfmpeg, DebiansFfmpegFailingOnAHostileUploadIsNoGpuFailure) {
  const mc::testing::TempDir dir;
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv = WithLevelTags({"/usr/bin/ffmpeg", "-hide_banner", "-i", HostileClip(dir), "-c:v",
                              "no_such_encoder", "-f", "null", "-"}),
       .parent_pid = getppid()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_FALSE(run.gpu_failure) << *run.gpu_failure;
}

TEST(JobFfmpeg, DebiansFfmpegFailingToOpenTheGpuIsAGpuFailure) {
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv = WithLevelTags({"/usr/bin/ffmpeg", "-hide_banner", "-init_hw_device", "cuda=gpu:99",
                              "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=5", "-t", "1", "-f",
                              "null", "-"}),
       .parent_pid = getppid()});
  EXPECT_NE(run.exit_code, 0);
  ASSERT_TRUE(run.gpu_failure);
  // The hardware device context speaks: without CUDA it cannot load the driver's library;
  // with it, CUDA names the error.
  EXPECT_TRUE(run.gpu_failure->starts_with("[AVHWDeviceContext @ 0x")) << *run.gpu_failure;
  EXPECT_TRUE(run.gpu_failure->find("Cannot load libcuda") != std::string::npos ||
              run.gpu_failure->find("CUDA_ERROR_") != std::string::npos)
      << *run.gpu_failure;
}

// An upload whose metadata key holds a line break and ffmpeg's error tag: ffmpeg prints the
// key raw, so the log holds "[error] CUDA_ERROR_OUT_OF_MEMORY: ..." as a line of its own.
TEST(JobFfmpeg, AMetadataKeyForgingAnErrorLineOfFfmpegsOwnIsNoGpuFailure) {
  const mc::testing::TempDir dir;
  const std::string clip = (dir.path() / "forged.mp4").string();
  const JobFfmpegRun made = RunJobFfmpeg(
      {.argv = {"/usr/bin/ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                "testsrc2=size=32x32:rate=5", "-t", "1", "-movflags", "use_metadata_tags",
                "-metadata", "comment\n[error] CUDA_ERROR_OUT_OF_MEMORY=fixed a bug", "-c:v",
                "libx264", clip},
       .parent_pid = getppid()});
  ASSERT_EQ(made.exit_code, 0);
  const JobFfmpegRun run =
      RunJobFfmpeg({.argv = WithLevelTags({"/usr/bin/ffmpeg", "-hide_banner", "-i", clip, "-c:v",
                                           "no_such_encoder", "-f", "null", "-"}),
                    .parent_pid = getppid(),
                    .hardware_components = {"h264_cuvid", "scale_cuda", "h264_nvenc"}});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_FALSE(run.gpu_failure) << *run.gpu_failure;
}

TEST(JobFfmpeg, AJobPastItsDeadlineIsKilledAndSaysSo) {
  const auto started = std::chrono::steady_clock::now();
  const JobFfmpegRun run = RunJobFfmpeg(
      {.argv = {"/bin/sleep", "30"}, .parent_pid = getppid(), .deadline = std::chrono::seconds(1)});
  EXPECT_TRUE(run.deadline_passed);
  EXPECT_EQ(run.exit_code, 128 + SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

TEST(JobDeadline, IsFiveMinutesAndTenTimesTheMedia) {
  EXPECT_EQ(JobDeadline(0), std::chrono::seconds(300));
  EXPECT_EQ(JobDeadline(60), std::chrono::seconds(900));
  EXPECT_EQ(JobDeadline(-5), std::chrono::seconds(300));
  EXPECT_EQ(JobDeadline(1e300), std::chrono::seconds(300 + 320'000'000));
}

TEST(StatedTimingProblem, RefusesTwoFramesAMillionSecondsApartNamingTheNumbers) {
  EXPECT_EQ(StatedTimingProblem(2, 1e6, 30),
            "the input states 2 video frames over 1000000 s, fewer than one frame per 600 s, "
            "which at 30 frames a second would make ffmpeg write 30000000 frames: its timestamps "
            "hold a gap no camera or editor writes; re-encode it with a steady frame rate and "
            "upload it again");
}

TEST(StatedTimingProblem, TakesHonestFilesAndThoseThatStateTooLittle) {
  EXPECT_EQ(StatedTimingProblem(1800, 60, 30), "");  // a minute at 30 fps
  EXPECT_EQ(StatedTimingProblem(1, 600, 30), "");    // a cover picture over ten minutes
  EXPECT_EQ(StatedTimingProblem(2, 600, 30), "");    // the review's 600 s gap: the deadline's
  EXPECT_EQ(StatedTimingProblem(10, 5400, 30), "");  // one frame per nine minutes
  EXPECT_EQ(StatedTimingProblem(0, 1e6, 30), "");    // no frame count stated
  EXPECT_EQ(StatedTimingProblem(2, std::nan(""), 30), "");
}

}  // namespace
}  // namespace mc::worker
