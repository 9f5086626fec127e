// A job that fails on the fake GPU fails alone: the real `worker run` on a fake machine
// (tests/fakenv's recorded RTX 4090), with a fake runner that runs one runner-shaped
// libx264 command through the real wrapper and Debian's ffmpeg whenever the test asks. The
// worker then runs its canary, the self-test's encode and decode of its own stream, and only
// the canary's verdict moves it: AVAILABLE when the canary passes, GPU_UNAVAILABLE when the
// GPU fails the canary too. At most one canary runs a minute, whatever the jobs do.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "serve_process.h"
#include "status_checks.h"
#include "support/run_command.h"
#include "support/temp_dir.h"
#include "tiny_streams.h"
#include "worker/daemon/registration.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

const std::string kRecord = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";

// The runner's web-video command line, as PeerTube's runner writes it.
const char* kJob =
    "-y -acodec copy -vcodec libx264 -threads 2 -f mp4 -movflags faststart "
    "-max_muxing_queue_size 1024 -map_metadata -1 -pix_fmt yuv420p -vf scale=w=-2:h=240 "
    "-preset veryfast -maxrate:v 552966 -bufsize:v 1105932 -b_strategy 1 -bf 16 -r 30 -g:v 60";

// A worker on its own fake machine, whose fake runner runs job N once the file go-N
// exists (holding the job's extra environment, NAME=value a line) and writes its exit status
// to done-N; the GPU fails from the next process on once the fault file names a fault.
class CanaryMachine {
 public:
  CanaryMachine() {
    Make({"ffmpeg", "-hide_banner", "-v", "error", "-y", "-f", "lavfi", "-i",
          "testsrc2=size=320x240:rate=30", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
          "-pix_fmt", "yuv420p", Path("clip.mp4")});
    dir_.Write("fault", "");
    fs::create_directories(dir_.path() / "state");
    EXPECT_TRUE(
        SaveRegistration(RegistrationPath(Path("state")), {.server_url = "http://127.0.0.1:9",
                                                           .runner_name = "canary-test",
                                                           .runner_id = 1,
                                                           .runner_token = "ptrt-canary"}));
    const fs::path runner = dir_.Write("runner", RunnerScript());
    fs::permissions(runner, fs::perms::owner_all);
    const std::string empty_kmsg = dir_.Write("kmsg", "").string();
    std::vector<std::string> argv = {FAKENV_RUN_ON,
                                     kRecord,
                                     "--",
                                     MEDIA_CAP_BINARY,
                                     "worker",
                                     "run",
                                     "--gpu",
                                     "0",
                                     "--state-dir",
                                     Path("state"),
                                     "--url",
                                     "http://127.0.0.1:9",
                                     "--allow-plain-http",
                                     "--runner",
                                     runner.string(),
                                     "--listen",
                                     "127.0.0.1:0",
                                     "--gate-listen",
                                     "127.0.0.1:0",
                                     "--streams",
                                     mc::testing::TinyStreams().string(),
                                     "--step-deadline",
                                     "120",
                                     "--kernel-log",
                                     empty_kmsg,
                                     "--drain-timeout",
                                     "5",
                                     "--job-cpu-millicores",
                                     "0"};
    if (geteuid() == 0) argv.insert(argv.begin() + 6, "--allow-root");
    worker_ = std::make_unique<testing::ServeProcess>(
        argv, std::vector<std::string>{"FAKENV_FAULT_FILE=" + Path("fault")}, Path("worker.log"));
  }

  ~CanaryMachine() { worker_->Stop(SIGTERM, std::chrono::seconds(30)); }

  std::string Path(const std::string& name) const { return (dir_.path() / name).string(); }
  std::string Log() const { return worker_->Log(); }

  // Status waits for the status address, then gives the status document.
  json Status() {
    if (status_.empty()) {
      const std::regex said("status on ([0-9.]+:[0-9]+),");
      for (auto until = Clock::now() + std::chrono::seconds(300);
           status_.empty() && Clock::now() < until;
           std::this_thread::sleep_for(std::chrono::milliseconds(200))) {
        std::smatch found;
        const std::string log = Log();
        if (std::regex_search(log, found, said)) status_ = found[1];
      }
      if (status_.empty()) return json();
    }
    const testing::Answer answer =
        testing::GetWhenGathered(status_, "/status", std::chrono::seconds(60));
    return json::parse(answer.body, nullptr, false);
  }

  std::string Metrics() { return testing::Get(status_, "/metrics").body; }

  // WaitFor asks for the status until `holds` says yes; the last document either way.
  json WaitFor(const std::function<bool(const json&)>& holds, std::chrono::seconds timeout) {
    json status;
    for (auto until = Clock::now() + timeout; Clock::now() < until;
         std::this_thread::sleep_for(std::chrono::milliseconds(300))) {
      status = Status();
      if (status.is_object() && holds(status)) return status;
    }
    return status;
  }

  // RunJob has the runner run job `n` with `environment`, and gives its exit status.
  int RunJob(int n, const std::string& environment) {
    dir_.Write("go-" + std::to_string(n), environment + "\n");
    const fs::path done = dir_.path() / ("done-" + std::to_string(n));
    for (auto until = Clock::now() + std::chrono::seconds(120);
         !fs::exists(done) && Clock::now() < until;
         std::this_thread::sleep_for(std::chrono::milliseconds(200))) {
    }
    std::ifstream in(done);
    int status = -1;
    in >> status;
    return status;
  }

  std::string JobLog(int n) const {
    return mc::testing::ReadFile(dir_.path() / ("job-" + std::to_string(n) + ".log"));
  }

  void BreakTheGpu() const { dir_.Write("fault", "encode-fails-after:3\n"); }

  const mc::testing::TempDir& dir() const { return dir_; }

 private:
  void Make(const std::vector<std::string>& argv) const {
    const probe::ChildOutcome made = mc::testing::RunCommand(argv);
    EXPECT_EQ(made.code, 0) << made.err;
  }

  // The fake runner: it answers --version as runner 0.1.3 does, and otherwise runs each
  // job the test asks for through FFMPEG_PATH, the wrapper, until the worker is gone.
  std::string RunnerScript() const {
    const std::string dir = dir_.path().string();
    return "#!/bin/sh\n"
           "for a in \"$@\"; do [ \"$a\" = --version ] && { echo 0.1.3; exit 0; }; done\n"
           "worker=$PPID\n"
           "n=1\n"
           "while kill -0 \"$worker\" 2>/dev/null; do\n"
           "  if [ -e " +
           dir +
           "/go-$n ]; then\n"
           "    env $(cat " +
           dir + "/go-$n) \"$FFMPEG_PATH\" -i " + dir + "/clip.mp4 " + kJob + " " + dir +
           "/out-$n.mp4 2> " + dir +
           "/job-$n.log\n"
           "    echo $? > " +
           dir +
           "/done-$n\n"
           "    n=$((n + 1))\n"
           "  fi\n"
           "  sleep 0.2\n"
           "done\n";
  }

  mc::testing::TempDir dir_;
  std::unique_ptr<testing::ServeProcess> worker_;
  std::string status_;
};

bool IsAvailable(const json& status) { return status.value("state", "") == "AVAILABLE"; }

TEST(Canary, AJobTheGpuFailedLeavesTheWorkerAvailableWhenTheCanaryPasses) {
  CanaryMachine machine;
  ASSERT_TRUE(IsAvailable(machine.WaitFor(IsAvailable, std::chrono::seconds(300))))
      << machine.Log();

  // The GPU fails this job's encode alone: its ffmpeg has the fault, the canary's does not.
  EXPECT_NE(machine.RunJob(1, "FAKENV_FAULT=encode-fails-after:3"), 0);
  const std::string words = machine.JobLog(1);
  EXPECT_NE(words.find("media-capabilities ffmpeg: the GPU failed: [h264_nvenc @ 0x"),
            std::string::npos)
      << words;
  EXPECT_NE(words.find("the job is failed, never re-run on the CPU, and the worker tests its GPU "
                       "with its canary now"),
            std::string::npos)
      << words;

  const json status = machine.WaitFor(
      [](const json& s) { return s["canary"].value("passed", 0) == 1; }, std::chrono::seconds(120));
  ASSERT_EQ(status["canary"].value("passed", 0), 1) << status.dump(2) << machine.Log();
  EXPECT_EQ(status["state"], "AVAILABLE") << status["state_reason"];
  EXPECT_EQ(status["canary"]["failed"], 0);
  EXPECT_EQ(status["canary"]["last"]["ok"], true);
  EXPECT_NE(status["canary"]["last"]["cause"].get<std::string>().find("EncodePicture failed"),
            std::string::npos);
  EXPECT_NE(status["canary"]["last"]["evidence"].get<std::string>().find("h264_nvenc"),
            std::string::npos)
      << status["canary"].dump(2);
  const probe::ChildOutcome valid = testing::ValidateAgainstSchema(machine.dir(), {status.dump()});
  EXPECT_EQ(valid.code, 0) << valid.out << valid.err;
  EXPECT_NE(machine.Metrics().find("pt_worker_canaries_total{result=\"passed\"} 1"),
            std::string::npos);
  EXPECT_NE(machine.Log().find("worker: the canary passed"), std::string::npos) << machine.Log();

  // A second failed job within the minute asks for a canary, which waits for the bound; the
  // worker still says AVAILABLE and keeps admitting jobs meanwhile.
  EXPECT_NE(machine.RunJob(2, "FAKENV_FAULT=encode-fails-after:3"), 0);
  const json waiting = machine.WaitFor(
      [](const json& s) { return s["canary"].value("pending", false); }, std::chrono::seconds(10));
  EXPECT_EQ(waiting["canary"]["pending"], true) << waiting["canary"].dump(2);
  std::this_thread::sleep_for(std::chrono::seconds(5));
  const json later = machine.Status();
  EXPECT_EQ(later["canary"]["passed"], 1) << later["canary"].dump(2);
  EXPECT_EQ(later["canary"]["pending"], true);
  EXPECT_EQ(later["state"], "AVAILABLE");
}

TEST(Canary, AJobTheGpuFailedMakesTheWorkerGpuUnavailableWhenTheCanaryFailsToo) {
  CanaryMachine machine;
  ASSERT_TRUE(IsAvailable(machine.WaitFor(IsAvailable, std::chrono::seconds(300))))
      << machine.Log();

  // From here on the GPU fails every encode after three pictures, the canary's too.
  machine.BreakTheGpu();
  EXPECT_NE(machine.RunJob(1, "NO_FAULT_OF_ITS_OWN=1"), 0);
  const json status =
      machine.WaitFor([](const json& s) { return s.value("state", "") == "GPU_UNAVAILABLE"; },
                      std::chrono::seconds(120));
  ASSERT_EQ(status.value("state", ""), "GPU_UNAVAILABLE") << status.dump(2) << machine.Log();
  const std::string reason = status["state_reason"];
  EXPECT_NE(reason.find("the canary"), std::string::npos) << reason;
  EXPECT_NE(reason.find("EncodePicture failed"), std::string::npos) << reason;
  EXPECT_EQ(status["canary"]["failed"], 1);
  EXPECT_EQ(status["canary"]["last"]["ok"], false);
}

}  // namespace
}  // namespace mc::worker
