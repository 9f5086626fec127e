// `systemctl stop` while `worker run` starts: a SIGTERM during the first self-test ends the worker
// within seconds. The self-test's ffmpeg is killed, nothing is registered, no runner starts, and
// the last self-test report stays as it was. It once finished the test, registered, started the
// runner, and could then wait for that runner up to the unit's hour.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "serve_process.h"
#include "support/temp_dir.h"
#include "tiny_streams.h"

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

bool WaitForLine(const testing::ServeProcess& process, const std::string& line,
                 std::chrono::seconds timeout) {
  const auto until = Clock::now() + timeout;
  while (Clock::now() < until) {
    if (process.Log().find(line) != std::string::npos) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

TEST(WorkerRun, ASigtermDuringTheFirstSelfTestEndsItPromptlyWithNoRunnerStarted) {
  mc::testing::TempDir dir;
  const std::filesystem::path state = dir.path() / "state";
  const std::string token = dir.Write("registration-token", "ptrrt-registration-token\n").string();
  // The PeerTube server is a port no one listens on: the worker must never get that far.
  testing::ServeProcess worker(
      {FAKENV_RUN_ON, std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json", "--",
       MEDIA_CAP_BINARY, "worker", "run", "--allow-root", "--gpu", "0", "--state-dir",
       state.string(), "--url", "http://127.0.0.1:9", "--registration-token-file", token,
       "--streams", mc::testing::TinyStreams().string(), "--step-deadline", "120"},
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}, (dir.path() / "worker.log").string());
  // The self-test's first ffmpeg (the gate lists the encoders) has started.
  ASSERT_TRUE(WaitForLine(worker, "worker run: running the self-test on", 120s)) << worker.Log();
  std::this_thread::sleep_for(300ms);
  const Clock::time_point sent = Clock::now();
  const int code = worker.Stop(SIGTERM, 60s);
  const auto took = Clock::now() - sent;
  const std::string log = worker.Log();
  EXPECT_EQ(code, 0) << log;
  EXPECT_LT(took, 5s) << log;
  EXPECT_NE(log.find("worker run: SIGTERM during the self-test; stopped before the runner started"),
            std::string::npos)
      << log;
  EXPECT_EQ(log.find("runner: started"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(state / "registration.json"));
  // A test cut short says nothing of the GPU: no report is kept from it.
  for (const auto& entry : std::filesystem::directory_iterator(state))
    EXPECT_FALSE(entry.path().filename().string().starts_with("self-test-")) << entry.path();
}

}  // namespace
}  // namespace mc::worker
