// CommandChannel with real commands, and with the real worker's control API brought up by
// its start command.
#include "pool/service/command_channel.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <thread>

#include "control_recorder.h"
#include "real_worker.h"
#include "support/free_port.h"
#include "support/temp_dir.h"

namespace mc::pool {
namespace {

using pool::Action;
using pool::ActionKind;
using std::chrono::milliseconds;
using testing::ActionOn;
using testing::ControlRecorder;
using testing::Has;
using testing::kWorkerToken;
using testing::RealWorker;

// Lines is a logger that keeps what it is told.
class Lines {
 public:
  Logger logger() {
    return [this](const std::string& line) {
      const std::lock_guard lock(mutex_);
      lines_.push_back(line);
    };
  }
  bool Has(const std::string& words) const {
    const std::lock_guard lock(mutex_);
    for (const std::string& line : lines_)
      if (line.find(words) != std::string::npos) return true;
    return false;
  }
  std::string All() const {
    const std::lock_guard lock(mutex_);
    std::string all;
    for (const std::string& line : lines_) all += line + "\n";
    return all;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

// Box is a worker whose status and control API answer at `url` (a recorder answers both), or at
// `control_url` for the control API where one is given.
WorkerEndpoint Box(const mc::testing::TempDir& dir, std::string url, BareMetalCommands commands,
                   std::string control_url = "") {
  return {
      .name = "gpu-box-1:gpu0",
      .url = url,
      .control_url = control_url.empty() ? url : control_url,
      .control_token_file = dir.Write("control-token", std::string(kWorkerToken) + "\n").string(),
      .wakeable = true,
      .commands = std::move(commands)};
}

TEST(CommandChannel, WakeRunsTheWakeCommand) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:1", {.wake = {"/bin/true"}});
  Result<void> woken = channel.Apply(ActionOn(ActionKind::kWake), box);
  ASSERT_TRUE(woken) << woken.error_message();
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: wake: run: /bin/true")) << log.All();
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: wake: /bin/true exited 0 after ")) << log.All();
}

TEST(CommandChannel, AFailingCommandIsAnErrorNamingTheWorkerTheActionAndTheProgram) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:1", {.suspend = {"/bin/false"}});
  Result<void> suspended = channel.Apply(ActionOn(ActionKind::kSuspend), box);
  ASSERT_FALSE(suspended);
  EXPECT_TRUE(suspended.error().IsUnavailable()) << suspended.error_message();
  EXPECT_EQ(suspended.error_message(), "gpu-box-1:gpu0: suspend: /bin/false exited 1");
}

TEST(CommandChannel, ACommandsOutputIsLoggedAndItsLastLineNamesTheFailure) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box =
      Box(dir, "http://127.0.0.1:1",
          {.wake = {"/bin/sh", "-c",
                    "echo sending to {name}; echo \"$MEDIA_POOL_WORKER: no route\" "
                    ">&2; exit 2"}});
  Result<void> woken = channel.Apply(ActionOn(ActionKind::kWake), box);
  ASSERT_FALSE(woken);
  EXPECT_EQ(woken.error_message(),
            "gpu-box-1:gpu0: wake: /bin/sh exited 2: gpu-box-1:gpu0: no route");
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: wake: /bin/sh: sending to gpu-box-1:gpu0")) << log.All();
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: wake: /bin/sh: gpu-box-1:gpu0: no route")) << log.All();
}

TEST(CommandChannel, ACommandPastItsDeadlineIsKilledWithinASecondOfIt) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:1",
                                 {.suspend = {"sleep", "30"}, .deadline = std::chrono::seconds(1)});
  const auto started = std::chrono::steady_clock::now();
  Result<void> suspended = channel.Apply(ActionOn(ActionKind::kSuspend), box);
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(suspended);
  EXPECT_TRUE(suspended.error().IsDeadlineExceeded()) << suspended.error_message();
  EXPECT_EQ(suspended.error_message(),
            "gpu-box-1:gpu0: suspend: sleep killed after its deadline of 1 s");
  EXPECT_GE(took, milliseconds(1000));
  EXPECT_LT(took, milliseconds(2000));
}

TEST(CommandChannel, AMissingProgramIsNotFoundNamingIt) {
  mc::testing::TempDir dir;
  CommandChannel channel({});
  const WorkerEndpoint box =
      Box(dir, "http://127.0.0.1:1", {.wake = {"/usr/bin/no-such-wakeonlan", "aa:bb"}});
  Result<void> woken = channel.Apply(ActionOn(ActionKind::kWake), box);
  ASSERT_FALSE(woken);
  EXPECT_TRUE(woken.error().IsNotFound()) << woken.error_message();
  EXPECT_EQ(woken.error_message(),
            "gpu-box-1:gpu0: wake: /usr/bin/no-such-wakeonlan not started: No "
            "such file or directory");
}

TEST(CommandChannel, ACommandNotConfiguredIsUnsupported) {
  mc::testing::TempDir dir;
  CommandChannel channel({});
  Result<void> woken =
      channel.Apply(ActionOn(ActionKind::kWake), Box(dir, "http://127.0.0.1:1", {}));
  ASSERT_FALSE(woken);
  EXPECT_TRUE(woken.error().IsUnsupported()) << woken.error_message();
  EXPECT_TRUE(Has(woken.error_message(), "gpu-box-1:gpu0: wake: no command is configured"));
}

TEST(CommandChannel, DrainGoesOverTheControlApiAndNeverStopsTheService) {
  mc::testing::TempDir dir;
  ControlRecorder recorder({});
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box = Box(dir, recorder.url(), {.stop = {"/bin/false"}});
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), box);
  ASSERT_TRUE(drained) << drained.error_message();
  ASSERT_EQ(recorder.seen().size(), 1u);
  EXPECT_EQ(recorder.seen()[0].path, "/drain");
  EXPECT_FALSE(log.Has("run:")) << log.All();
}

TEST(CommandChannel, AnEnableOfAServiceThatIsUpRunsNoStartCommand) {
  mc::testing::TempDir dir;
  ControlRecorder recorder({});
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box = Box(dir, recorder.url(), {.start = {"/bin/false"}});
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 2), box);
  ASSERT_TRUE(enabled) << enabled.error_message();
  ASSERT_EQ(recorder.seen().size(), 2u);
  EXPECT_FALSE(log.Has("run:")) << log.All();
}

TEST(CommandChannel, AnEnableOfAServiceThatIsDownWithNoStartCommandIsUnavailable) {
  mc::testing::TempDir dir;
  CommandChannel channel({});
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:" + std::to_string(mc::testing::FreePort()),
                                 {.wake = {"/bin/true"}});
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 2), box);
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsUnavailable()) << enabled.error_message();
  EXPECT_TRUE(Has(enabled.error_message(), "gpu-box-1:gpu0: enable: POST /concurrency: "))
      << enabled.error_message();
}

TEST(CommandChannel, AnEnableStartsAServiceThatIsDownThenEnablesTheRealWorker) {
  // The start command signals the test, which starts the real worker on the endpoint's port,
  // and returns once the worker has finished its first gathering: as `systemctl start` of a
  // unit returns once the service is up.
  mc::testing::TempDir dir;
  const std::string asked = (dir.path() / "start-asked").string();
  const std::string ready = (dir.path() / "worker-ready").string();
  const int port = mc::testing::FreePort();
  const int control_port = mc::testing::FreePort();
  std::unique_ptr<RealWorker> worker;
  std::thread starter([&] {
    for (int i = 0; i < 1000 && !std::filesystem::exists(asked); ++i)
      std::this_thread::sleep_for(milliseconds(10));
    if (!std::filesystem::exists(asked)) return;
    worker = std::make_unique<RealWorker>(kWorkerToken, "127.0.0.1:" + std::to_string(port),
                                          "127.0.0.1:" + std::to_string(control_port));
    dir.Write("worker-ready", "");
  });

  Lines log;
  CommandChannel channel({.log = log.logger()});
  const WorkerEndpoint box =
      Box(dir, "http://127.0.0.1:" + std::to_string(port),
          {.start = {"/bin/sh", "-c",
                     "touch '" + asked + "'; while [ ! -e '" + ready + "' ]; do sleep 0.05; done"},
           .deadline = std::chrono::seconds(30)},
          "http://127.0.0.1:" + std::to_string(control_port));
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 3), box);
  starter.join();
  ASSERT_TRUE(worker && worker->started());
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: enable: the worker's service does not answer")) << log.All();
  EXPECT_TRUE(log.Has("gpu-box-1:gpu0: enable: start: /bin/sh exited 0")) << log.All();
  // The real worker has no GPU, so it takes the concurrency and refuses the enable itself.
  EXPECT_TRUE(worker->Logged("worker: concurrency hint 3"));
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsConflict()) << enabled.error_message();
  EXPECT_TRUE(Has(enabled.error_message(),
                  "gpu-box-1:gpu0: enable: POST /enable: the control API "
                  "answered 409: not enabled: the last probe failed"))
      << enabled.error_message();
}

TEST(CommandChannel, AServiceThatDoesNotComeUpAfterItsStartIsDeadlineExceeded) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger(), .start_poll = milliseconds(50)});
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:" + std::to_string(mc::testing::FreePort()),
                                 {.start = {"/bin/true"}, .deadline = std::chrono::seconds(1)});
  const auto started = std::chrono::steady_clock::now();
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 1), box);
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsDeadlineExceeded()) << enabled.error_message();
  EXPECT_TRUE(Has(enabled.error_message(),
                  "gpu-box-1:gpu0: enable: the service was started, but its "
                  "status did not answer within 1 s"))
      << enabled.error_message();
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(2500));
}

TEST(CommandChannel, StopRunsTheStopCommand) {
  mc::testing::TempDir dir;
  Lines log;
  CommandChannel channel({.log = log.logger()});
  const std::string stopped = (dir.path() / "stopped").string();
  const WorkerEndpoint box = Box(dir, "http://127.0.0.1:1", {.stop = {"/usr/bin/touch", stopped}});
  Result<void> result = channel.Stop(box);
  ASSERT_TRUE(result) << result.error_message();
  EXPECT_TRUE(std::filesystem::exists(stopped));
}

TEST(CommandChannel, DescribeNamesTheCommandWithTheWorkersNameInIt) {
  mc::testing::TempDir dir;
  CommandChannel channel({});
  const WorkerEndpoint box = Box(dir, "http://10.0.0.5:9464",
                                 {.start = {"ssh", "gpu-box-1", "systemctl start media-worker@0"},
                                  .wake = {"wakeonlan", "aa:bb:cc:dd:ee:ff"},
                                  .suspend = {"ssh", "{name}.lan", "systemctl", "suspend"}});
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kWake), box), "run: wakeonlan aa:bb:cc:dd:ee:ff");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kSuspend), box),
            "run: ssh gpu-box-1:gpu0.lan systemctl suspend");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kEnable, 2), box),
            "POST http://10.0.0.5:9464/concurrency 2, then POST http://10.0.0.5:9464/enable "
            "(first run: ssh gpu-box-1 'systemctl start media-worker@0', if the service refuses "
            "the connection)");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kDrain), box), "POST http://10.0.0.5:9464/drain");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kWake), Box(dir, "http://10.0.0.5:9464", {})),
            "nothing: no wake command is configured for gpu-box-1:gpu0");
}

TEST(CommandArgv, ReplacesEveryNameAndNothingElse) {
  const WorkerEndpoint box{.name = "w1"};
  EXPECT_EQ(CommandArgv({"ssh", "{name}", "x{name}y{name}", "{nam}"}, box),
            (std::vector<std::string>{"ssh", "w1", "xw1yw1", "{nam}"}));
}

}  // namespace
}  // namespace mc::pool
