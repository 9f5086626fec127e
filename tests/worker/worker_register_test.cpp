// `worker register` and `worker run` on registration: the deployments register in a step of
// their own (an init container, a oneshot unit) and start `worker run` without the registration
// token, so the two commands must name the runner alike, and a worker with neither a
// registration nor a token must say how to get one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <mutex>
#include <nlohmann/json.hpp>

#include "common/base/read_file.h"
#include "common/http/http_server.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::worker {
namespace {

// A stand-in for PeerTube's POST /api/v1/runners/register: it keeps the bodies it was sent and
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
    EXPECT_TRUE(started) << started.error();
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
  EXPECT_TRUE(text) << text.error();
  return nlohmann::json::parse(text ? *text : "{}", nullptr, false);
}

std::string HostName() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

TEST(WorkerRun, WithNoRegistrationAndNoTokenFileItFailsAtOnceNamingWorkerRegister) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "worker", "run", "--gpu", "0", "--state-dir",
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
      mc::testing::RunCommand({MEDIA_CAP_BINARY, "worker", "register", "--gpu", "0", "--state-dir",
                               (dir.path() / "state").string(), "--url", peertube.url(),
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
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {FAKENV_RUN_ON, std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json", "--",
       MEDIA_CAP_BINARY, "worker", "register", "--gpu", "0", "--state-dir",
       (dir.path() / "state").string(), "--url", peertube.url(), "--registration-token-file",
       TokenFile(dir)},
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR, "PT_WORKER_RUNNER_NAME="});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(SavedRegistration(dir).value("runner_name", ""), HostName() + ":pci-0000-01-00-0");
}

TEST(WorkerRegister, AKeptRegistrationIsTakenWithoutReadingTheTokenAgain) {
  mc::testing::TempDir dir;
  RegisterServer peertube;
  ASSERT_NE(peertube.server, nullptr);
  const std::vector<std::string> argv = {MEDIA_CAP_BINARY,
                                         "worker",
                                         "register",
                                         "--state-dir",
                                         (dir.path() / "state").string(),
                                         "--url",
                                         peertube.url(),
                                         "--runner-name",
                                         "w2:gpu0",
                                         "--registration-token-file",
                                         TokenFile(dir)};
  ASSERT_EQ(mc::testing::RunCommand(argv).code, 0);
  // The token is gone, as an init container that runs again finds it (or not) after the
  // first registration: the kept registration is enough.
  std::filesystem::remove(dir.path() / "registration-token");
  const probe::ChildOutcome again = mc::testing::RunCommand(argv);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(peertube.Bodies().size(), 1u);
}

}  // namespace
}  // namespace mc::worker
