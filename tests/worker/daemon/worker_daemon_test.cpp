// What `worker run` says when a listener cannot open: a port another program holds names the
// flag that picks another and each GPU's own defaults; a second worker on one state directory is
// told to stop the first or take a folder of its own.
#include "worker/daemon/worker_daemon.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/http/http_server.h"
#include "support/temp_dir.h"

namespace mc::worker {
namespace {

// DaemonOptions for a worker on a machine with no GPU, its files under `dir`.
DaemonOptions OptionsIn(const mc::testing::TempDir& dir) {
  std::filesystem::create_directories(dir.path() / "sys/class/drm");
  std::filesystem::create_directories(dir.path() / "dev");
  std::filesystem::create_directories(dir.path() / "state");
  GatherOptions gather;
  gather.config.gpu = "pci-0000-00-02-0";
  gather.config.work_dir = (dir.path() / "work").string();
  gather.probe.roots = {.sysfs = (dir.path() / "sys").string(),
                        .dev = (dir.path() / "dev").string()};
  gather.probe.query.fork_from_caller = false;
  gather.platform = {.dev = (dir.path() / "dev").string(), .proc = "/proc"};
  gather.kernel_log = dir.Write("empty-kmsg", "").string();
  gather.nvml_library = "libnvidia-ml-not-here.so.1";
  return {.gather = gather,
          .state_dir = (dir.path() / "state").string(),
          .status_listen = "127.0.0.1:0"};
}

// Another program holding a port.
std::unique_ptr<http::Server> Holder() {
  Result<std::unique_ptr<http::Server>> server = http::Server::Start("127.0.0.1:0", {});
  EXPECT_TRUE(server) << server.error_message();
  return server ? std::move(*server) : nullptr;
}

TEST(WorkerDaemon, AStatusPortAnotherProgramHoldsNamesTheFlagAndEachGpusDefaults) {
  mc::testing::TempDir dir;
  const std::unique_ptr<http::Server> holder = Holder();
  ASSERT_NE(holder, nullptr);
  DaemonOptions options = OptionsIn(dir);
  options.status_listen = holder->address();
  const Result<std::unique_ptr<WorkerDaemon>> daemon = WorkerDaemon::Start(std::move(options));
  ASSERT_FALSE(daemon);
  const std::string& message = daemon.error_message();
  EXPECT_NE(message.find("Address already in use"), std::string::npos) << message;
  EXPECT_NE(message.find("`ss -ltnp` names it"), std::string::npos) << message;
  EXPECT_NE(message.find("give this worker a free one with --listen"), std::string::npos)
      << message;
  EXPECT_NE(message.find("9464 + 10 N"), std::string::npos) << message;
}

TEST(WorkerDaemon, AGatePortAnotherProgramHoldsNamesTheGateFlag) {
  mc::testing::TempDir dir;
  const std::unique_ptr<http::Server> holder = Holder();
  ASSERT_NE(holder, nullptr);
  DaemonOptions options = OptionsIn(dir);
  options.server_url = "http://127.0.0.1:9";
  options.gate_listen = holder->address();
  const Result<std::unique_ptr<WorkerDaemon>> daemon = WorkerDaemon::Start(std::move(options));
  ASSERT_FALSE(daemon);
  EXPECT_NE(daemon.error_message().find("give this worker a free one with --gate-listen"),
            std::string::npos)
      << daemon.error_message();
}

TEST(WorkerDaemon, ASecondWorkerOnOneStateDirectoryIsToldToStopTheFirstOrTakeAnother) {
  mc::testing::TempDir dir;
  Result<std::unique_ptr<WorkerDaemon>> first = WorkerDaemon::Start(OptionsIn(dir));
  ASSERT_TRUE(first) << first.error_message();
  const Result<std::unique_ptr<WorkerDaemon>> second = WorkerDaemon::Start(OptionsIn(dir));
  ASSERT_FALSE(second);
  EXPECT_NE(second.error_message().find("a worker already runs with this --state-dir"),
            std::string::npos)
      << second.error_message();
}

}  // namespace
}  // namespace mc::worker
