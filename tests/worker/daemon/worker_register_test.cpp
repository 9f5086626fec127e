// `worker register` and `worker run` on registration: the deployments register in a step of
// their own (an init container, a oneshot unit) and start `worker run` without the registration
// token, so the two commands must name the runner alike, and a worker with neither a
// registration nor a token must say how to get one. `worker register` passes the self-test
// gate of `worker run` first: a GPU that cannot work is never registered.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "common/base/read_file.h"
#include "common/http/http_server.h"
#include "support/run_command.h"
#include "support/temp_dir.h"
#include "tiny_streams.h"
#include "worker/daemon/worker_daemon.h"

namespace mc::worker {
namespace {

// A fake of PeerTube's POST /api/v1/runners/register: it keeps the bodies it was sent and
// answers each with runner 7 and its token.
struct RegisterServer {
  std::mutex lock;
  std::vector<std::string> bodies;
  std::unique_ptr<http::Server> server;

  RegisterServer() {
    Result<std::unique_ptr<http::Server>> started = http::Server::Start(
        "127.0.0.1:0", {}, {},
        {{"/api/v1/runners/register", [this](const http::ActionRequest& request) {
            std::lock_guard<std::mutex> held(lock);
            bodies.push_back(request.body);
            return http::Response{.status = 200,
                                  .body = R"({"id": 7, "runnerToken": "ptrt-runner-7"})"};
          }}});
    EXPECT_TRUE(started) << started.error_message();
    if (started) server = std::move(*started);
  }

  std::string url() const { return "http://" + server->address(); }
  std::vector<std::string> Bodies() {
    std::lock_guard<std::mutex> held(lock);
    return bodies;
  }
};

std::string TokenFile(const mc::testing::TempDir& dir) {
  return dir.Write("registration-token", "ptrrt-registration-token\n").string();
}

nlohmann::json SavedRegistration(const mc::testing::TempDir& dir) {
  Result<std::string> text = ReadFileText((dir.path() / "state" / "registration.json").string());
  EXPECT_TRUE(text) << text.error_message();
  return nlohmann::json::parse(text ? *text : "{}", nullptr, false);
}

// Register runs `worker register` on the fake GPU of `record` (tests/fakenv/records), whose
// self-test takes the tiny streams.
probe::ChildOutcome Register(const std::string& record, std::vector<std::string> flags,
                             std::vector<std::string> env = {}) {
  std::vector<std::string> argv = {FAKENV_RUN_ON,
                                   std::string(FAKENV_RECORDS_DIR) + "/" + record,
                                   "--",
                                   MEDIA_CAP_BINARY,
                                   "worker",
                                   "register",
                                   "--gpu",
                                   "0",
                                   "--streams",
                                   mc::testing::TinyStreams().string(),
                                   "--step-deadline",
                                   "120"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  env.push_back("MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR);
  return mc::testing::RunCommand(argv, env, std::chrono::seconds(300));
}

std::string HostName() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

// As root the sandbox of each job's ffmpeg is weaker: the worker refuses, says why and what to do.
TEST(WorkerRun, AsRootItRefusesUnlessAllowedAndSaysWhy) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "worker", "run", "--gpu", "0", "--state-dir",
       (dir.path() / "state").string(), "--url", "http://127.0.0.1:9", "--runner", "true"},
      {"MEDIA_CAP_SYSFS_ROOT=" + (dir.path() / "sys").string(),
       "MEDIA_CAP_DEV_ROOT=" + (dir.path() / "dev").string()});
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_NE(run.err.find("worker run: refused: running as root"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("/proc"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("DynamicUser"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--allow-root"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "state")) << "refused before it made anything";
}

TEST(WorkerRun, WithNoRegistrationAndNoTokenFileItFailsAtOnceNamingWorkerRegister) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "worker", "run", "--allow-root", "--gpu", "0", "--state-dir",
       (dir.path() / "state").string(), "--url", "http://127.0.0.1:9", "--runner", "true"},
      {"MEDIA_CAP_SYSFS_ROOT=" + (dir.path() / "sys").string(),
       "MEDIA_CAP_DEV_ROOT=" + (dir.path() / "dev").string()});
  EXPECT_EQ(run.code, 1) << run.err;
  EXPECT_NE(run.err.find("the worker is not registered"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--registration-token-file"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("media-capabilities worker register"), std::string::npos) << run.err;
  // It says so before the self-test, which would otherwise be the first thing to fail here.
  EXPECT_EQ(run.err.find("GPU_UNAVAILABLE"), std::string::npos) << run.err;
}

TEST(WorkerRegister, NamesTheRunnerByThePtWorkerRunnerNameThatWorkerRunReads) {
  mc::testing::TempDir dir;
  RegisterServer peertube;
  ASSERT_NE(peertube.server, nullptr);
  const probe::ChildOutcome run =
      Register("ada-geforce-rtx4090.json",
               {"--state-dir", (dir.path() / "state").string(), "--url", peertube.url(),
                "--registration-token-file", TokenFile(dir)},
               {"PT_WORKER_RUNNER_NAME=peertube-worker-3"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("as peertube-worker-3 (runner 7)"), std::string::npos) << run.out;
  ASSERT_EQ(peertube.Bodies().size(), 1u);
  EXPECT_NE(peertube.Bodies()[0].find("&name=peertube-worker-3"), std::string::npos)
      << peertube.Bodies()[0];
  const nlohmann::json saved = SavedRegistration(dir);
  EXPECT_EQ(saved.value("runner_name", ""), "peertube-worker-3") << saved.dump();
  // Neither the command's output nor its log quotes the registration token.
  EXPECT_EQ((run.out + run.err).find("ptrrt-"), std::string::npos) << run.out << run.err;
}

TEST(WorkerRegister, WithoutANameItNamesTheRunnerAfterTheHostAndTheGpuAsWorkerRunDoes) {
  mc::testing::TempDir dir;
  RegisterServer peertube;
  ASSERT_NE(peertube.server, nullptr);
  const probe::ChildOutcome run =
      Register("ada-geforce-rtx4090.json",
               {"--state-dir", (dir.path() / "state").string(), "--url", peertube.url(),
                "--registration-token-file", TokenFile(dir)},
               {"PT_WORKER_RUNNER_NAME="});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(SavedRegistration(dir).value("runner_name", ""), HostName() + ":pci-0000-01-00-0");
}

TEST(WorkerRegister, AKeptRegistrationIsTakenWithoutReadingTheTokenAgain) {
  mc::testing::TempDir dir;
  RegisterServer peertube;
  ASSERT_NE(peertube.server, nullptr);
  const std::vector<std::string> flags = {"--state-dir",
                                          (dir.path() / "state").string(),
                                          "--url",
                                          peertube.url(),
                                          "--runner-name",
                                          "w2:gpu0",
                                          "--registration-token-file",
                                          TokenFile(dir)};
  const probe::ChildOutcome first = Register("ada-geforce-rtx4090.json", flags);
  ASSERT_EQ(first.code, 0) << first.err;
  // The token is gone, as an init container that runs again finds it (or not) after the
  // first registration: the kept registration is enough.
  std::filesystem::remove(dir.path() / "registration-token");
  std::vector<std::string> again_flags = flags;
  again_flags.insert(again_flags.end(), {"--self-test-max-age", "3600"});
  const probe::ChildOutcome again = Register("ada-geforce-rtx4090.json", again_flags);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(peertube.Bodies().size(), 1u);
  // The green self-test the first registration kept is taken, as `worker run` takes it.
  EXPECT_NE(again.err.find("worker register: taking the self-test of"), std::string::npos)
      << again.err;
}

// A board without NVENC fails the self-test at its encode step. `worker run` would exit
// GPU_UNAVAILABLE there: `worker register` exits so before PeerTube hears of the runner.
TEST(WorkerRegister, OnABoardThatFailsTheSelfTestItRegistersNothingAndExitsGpuUnavailable) {
  mc::testing::TempDir dir;
  RegisterServer peertube;
  ASSERT_NE(peertube.server, nullptr);
  const probe::ChildOutcome run = Register(
      "h200.json", {"--state-dir", (dir.path() / "state").string(), "--url", peertube.url(),
                    "--registration-token-file", TokenFile(dir), "--runner-name", "w1:gpu0"});
  EXPECT_EQ(run.code, 3) << run.out << run.err;
  EXPECT_TRUE(peertube.Bodies().empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "state" / "registration.json"));
  // It says why, and what to do next.
  EXPECT_NE(run.err.find("worker register: GPU_UNAVAILABLE: the self-test failed"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("step encode"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("nothing registered"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("media-capabilities worker self-test"), std::string::npos) << run.err;
}

// One worker per GPU: each GPU's worker listens on ports of its own unless told otherwise.
TEST(WorkerPorts, TheDefaultsOfGpuZeroAndGpuOneDifferAndGpuZeroKeepsTheOldOnes) {
  EXPECT_EQ(DefaultListenAddress(kStatusPortBase, 0), "127.0.0.1:9464");
  EXPECT_EQ(DefaultListenAddress(kGatePortBase, 0), "127.0.0.1:9465");
  EXPECT_EQ(DefaultListenAddress(kStatusPortBase, 1), "127.0.0.1:9474");
  EXPECT_EQ(DefaultListenAddress(kGatePortBase, 1), "127.0.0.1:9475");
  EXPECT_EQ(DefaultListenAddress(kControlPortBase, 1), "127.0.0.1:9476");
  std::set<std::string> seen;
  for (std::size_t gpu = 0; gpu < 16; ++gpu) {
    for (int base : {kStatusPortBase, kGatePortBase, kControlPortBase}) {
      const std::string address = DefaultListenAddress(base, gpu);
      EXPECT_TRUE(seen.insert(address).second) << address << " twice";
    }
  }
}

// `worker run --help` gives the rule, and the flags' own defaults no longer name GPU 0's ports.
TEST(WorkerPorts, WorkerRunsHelpSaysEachGpusDefaultPorts) {
  const probe::ChildOutcome help =
      mc::testing::RunCommand({MEDIA_CAP_BINARY, "worker", "run", "--help"});
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("127.0.0.1:(9464 + 10 N)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("127.0.0.1:(9465 + 10 N)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("place in PCI address order"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace mc::worker
