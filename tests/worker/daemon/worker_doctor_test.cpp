// `worker doctor` against a server answering PeerTube 7.2.1's recorded config and a runner
// command that prints a version: the pair in words and the exit status of each kind of pair;
// and ffmpeg's sandbox on this kernel and, through without_landlock, on one without Landlock.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/base/read_file.h"
#include "common/http/http_server.h"
#include "support/run_command.h"
#include "support/temp_dir.h"
#include "worker/daemon/worker_daemon.h"
#include "worker/evidence/kernel_log.h"
#include "worker/probe_contract/landlock.h"

namespace mc::worker {
namespace {

// A server that answers `GET /api/v1/config` with the recorded config, its version replaced.
std::unique_ptr<http::Server> ConfigServer(const std::string& version) {
  Result<std::string> recorded = ReadFileText(PEERTUBE_DATA_DIR "/admin-api/config.json");
  EXPECT_TRUE(recorded) << recorded.error_message();
  nlohmann::json config = nlohmann::json::parse(recorded ? *recorded : "{}");
  config["serverVersion"] = version;
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start("127.0.0.1:0", {{"/api/v1/config", [body = config.dump()] {
                                             return http::Response{.status = 200, .body = body};
                                           }}});
  EXPECT_TRUE(server) << server.error_message();
  return server ? std::move(*server) : nullptr;
}

// A runner command that prints `output` for --version and exits with `status`.
std::string Runner(const mc::testing::TempDir& dir, const std::string& output, int status = 0) {
  const std::string path = (dir.path() / "runner").string();
  std::ofstream(path) << "#!/bin/sh\nprintf '" << output << "'\nexit " << status << "\n";
  chmod(path.c_str(), 0755);
  return path;
}

// How the doctor runs beside the server and the runner: `before` (a program that runs the
// rest) in front of the binary, `flags` after its own, `env` added to the environment.
struct DoctorRun {
  std::vector<std::string> before;
  std::vector<std::string> flags;
  std::vector<std::string> env;
};

probe::ChildOutcome Doctor(const http::Server& server, const std::string& runner,
                           const DoctorRun& how = {}) {
  std::vector<std::string> argv = how.before;
  argv.insert(argv.end(), {MEDIA_CAP_BINARY, "worker", "doctor", "--url",
                           "http://" + server.address(), "--runner", runner});
  argv.insert(argv.end(), how.flags.begin(), how.flags.end());
  return mc::testing::RunCommand(argv, how.env);
}

TEST(WorkerDoctor, SaysTheTestedPairIsTested) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run = Doctor(*server, Runner(dir, "0.1.3\\n"));
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("PeerTube server: 7.2.1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("official runner: 0.1.3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("the pair: tested"), std::string::npos) << run.out;
}

TEST(WorkerDoctor, SaysANewerPairIsCompatibleByContractAndAnOlderServerBreaks) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> newer = ConfigServer("9.0.0");
  ASSERT_NE(newer, nullptr);
  const probe::ChildOutcome contract = Doctor(*newer, Runner(dir, "0.6.0\\n"));
  EXPECT_EQ(contract.code, 0) << contract.err;
  EXPECT_NE(contract.out.find("the pair: by-contract"), std::string::npos) << contract.out;

  std::unique_ptr<http::Server> older = ConfigServer("5.1.0");
  ASSERT_NE(older, nullptr);
  const probe::ChildOutcome breaks = Doctor(*older, Runner(dir, "0.1.3\\n"));
  EXPECT_EQ(breaks.code, 1);
  EXPECT_NE(breaks.out.find("the pair: breaks: PeerTube before 5.2 has no remote runners"),
            std::string::npos)
      << breaks.out;
}

TEST(WorkerDoctor, ARunnerThatFailsIsOneAWorkerCannotWorkWith) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run = Doctor(*server, Runner(dir, "node: not found\\n", 127));
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.out.find("official runner: unknown ("), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("exited 127"), std::string::npos) << run.out;
}

// A box with no runner yet: the doctor gives the command that installs the tested one.
TEST(WorkerDoctor, ARunnerNotInstalledIsSaidWithTheCommandThatInstallsIt) {
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run = Doctor(*server, "/nonexistent/peertube-runner");
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.out.find("did not start: No such file or directory"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("npm install -g @peertube/peertube-runner@0.1.3"), std::string::npos)
      << run.out;
}

// Debian's kernel.dmesg_restrict=1: the admin reads /dev/kmsg, the unit's user cannot, and the
// doctor says so and how to allow it.
TEST(WorkerDoctor, UnderDmesgRestrictItSaysTheUnitCannotReadTheKernelLogAndHowToAllowIt) {
  if (!ReadKernelLog("/dev/kmsg")) GTEST_SKIP() << "this user cannot read /dev/kmsg";
  mc::testing::TempDir dir;
  dir.Write("proc/sys/kernel/dmesg_restrict", "1\n");
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run = Doctor(
      *server, Runner(dir, "0.1.3\n"),
      {.flags = {"--kernel-log", "/dev/kmsg", "--proc-root", (dir.path() / "proc").string()}});
  EXPECT_NE(run.out.find("the kernel log: /dev/kmsg is readable here"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("the shipped unit's user (no CAP_SYSLOG) cannot read it"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("AmbientCapabilities=CAP_SYSLOG"), std::string::npos) << run.out;
}

// `doctor` on a bare-metal box with two units: GPU 0's never started, GPU 1's runs (on a machine
// with no GPU, so it refuses work). Each gets a line with what to do, as do the PeerTube server
// the units name and the runner they start.
TEST(Doctor, OnABareMetalWorkerBoxItChecksEachUnitPeerTubeAndTheRunner) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const std::filesystem::path host = dir.path() / "host";
  for (const char* unit : {"0", "1"})
    dir.Write("host/etc/media-worker/" + std::string(unit) + ".env",
              "PEERTUBE_URL=http://" + server->address() + "\n");
  std::filesystem::create_directories(dir.path() / "machine/sys/class/drm");
  std::filesystem::create_directories(dir.path() / "machine/dev");
  std::filesystem::create_directories(host / "var/lib/media-worker/1");
  GatherOptions gather;
  gather.config.gpu = "pci-0000-00-02-0";
  gather.config.work_dir = (dir.path() / "work").string();
  gather.probe.roots = {.sysfs = (dir.path() / "machine/sys").string(),
                        .dev = (dir.path() / "machine/dev").string()};
  gather.probe.query.fork_from_caller = false;
  gather.platform = {.dev = (dir.path() / "machine/dev").string(), .proc = "/proc"};
  gather.kernel_log = dir.Write("empty-kmsg", "").string();
  gather.nvml_library = "libnvidia-ml-not-here.so.1";
  Result<std::unique_ptr<WorkerDaemon>> worker =
      WorkerDaemon::Start({.gather = gather,
                           .state_dir = (host / "var/lib/media-worker/1").string(),
                           .status_listen = "127.0.0.1:0"});
  ASSERT_TRUE(worker) << worker.error_message();
  (*worker)->WaitGathered(std::chrono::seconds(60));
  dir.Write("bin/peertube-runner", "#!/bin/sh\necho 0.1.3\n");
  chmod((dir.path() / "bin/peertube-runner").c_str(), 0755);
  const char* path = std::getenv("PATH");
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "doctor", "--output", "json"},
      {"MEDIA_CAP_HOST_ROOT=" + host.string(),
       "PATH=" + (dir.path() / "bin").string() + ":" + (path ? path : "/usr/bin:/bin"),
       "KUBERNETES_SERVICE_HOST="});
  const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << run.out << run.err;
  std::map<std::string, std::vector<nlohmann::json>> lines;
  for (const nlohmann::json& line : report["checks"]) lines[line["id"]].push_back(line);
  ASSERT_EQ(lines["worker-units"].size(), 2u) << run.out;
  const nlohmann::json& stopped = lines["worker-units"][0];
  EXPECT_EQ(stopped["status"], "fail");
  EXPECT_NE(stopped["finding"].get<std::string>().find("media-worker@0 has no running worker"),
            std::string::npos)
      << stopped;
  EXPECT_NE(stopped["remedy"].get<std::string>().find("journalctl -u media-worker@0"),
            std::string::npos)
      << stopped;
  const nlohmann::json& refusing = lines["worker-units"][1];
  EXPECT_NE(refusing["finding"].get<std::string>().find("media-worker@1: GPU_UNAVAILABLE"),
            std::string::npos)
      << refusing;
  EXPECT_NE(refusing["remedy"].get<std::string>().find("worker self-test --gpu N"),
            std::string::npos)
      << refusing;
  ASSERT_EQ(lines["peertube-server"].size(), 1u) << run.out;
  EXPECT_EQ(lines["peertube-server"][0]["status"], "ok") << lines["peertube-server"][0];
  EXPECT_NE(lines["peertube-server"][0]["finding"].get<std::string>().find("PeerTube 7.2.1"),
            std::string::npos);
  ASSERT_EQ(lines["peertube-runner"].size(), 1u) << run.out;
  EXPECT_EQ(lines["peertube-runner"][0]["finding"], "peertube-runner 0.1.3");
  EXPECT_EQ(lines["kernel-log"].size(), 1u) << run.out;
  // No cluster: no remedy names one.
  EXPECT_EQ(run.out.find("supplementalGroups"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("media.liken.sh/gpu=none"), std::string::npos) << run.out;
}

// A box where no worker unit ever ran gets no worker lines.
TEST(Doctor, OnABoxWithoutWorkerUnitsItGivesNoWorkerLines) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "doctor", "--output", "json"},
      {"MEDIA_CAP_HOST_ROOT=" + (dir.path() / "host").string(), "KUBERNETES_SERVICE_HOST="});
  EXPECT_EQ(run.out.find("\"worker-units\""), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\"peertube-runner\""), std::string::npos) << run.out;
}

TEST(WorkerDoctor, OnAKernelWithLandlockItSaysEveryUploadReaderIsBoxedAndWhatItsAbiEnforces) {
  const int abi = LandlockAbi();
  if (abi == 0) GTEST_SKIP() << "this kernel has no Landlock";
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run = Doctor(*server, Runner(dir, "0.1.3\\n"));
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("ffmpeg's sandbox: boxed: every ffmpeg and ffprobe that reads an "
                         "upload runs boxed with no new privileges"),
            std::string::npos)
      << run.out;
  const std::string reach = abi >= 6   ? ": filesystem, network, signal and abstract-socket scopes"
                            : abi >= 4 ? ": filesystem and network"
                                       : ": filesystem only";
  EXPECT_NE(run.out.find("landlock ABI " + std::to_string(abi) + reach), std::string::npos)
      << run.out;
}

TEST(WorkerDoctor, OnAKernelWithoutLandlockItWarnsThatFfmpegDecodesUploadsUnboxed) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  const probe::ChildOutcome run =
      Doctor(*server, Runner(dir, "0.1.3\\n"), {.before = {WITHOUT_LANDLOCK}});
  // A warning: the worker runs, and says so.
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("the pair: tested"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("ffmpeg's sandbox: unboxed: the kernel has no Landlock (or has it turned "
                         "off): each job's ffmpeg decodes uploads unboxed, beside the worker's "
                         "secrets"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("PT_WORKER_REQUIRE_SANDBOX=1 refuses that"), std::string::npos) << run.out;
}

TEST(WorkerDoctor, OnAKernelWithoutLandlockARequiredSandboxFailsIt) {
  mc::testing::TempDir dir;
  std::unique_ptr<http::Server> server = ConfigServer("7.2.1");
  ASSERT_NE(server, nullptr);
  for (const bool by_flag : {false, true}) {
    SCOPED_TRACE(by_flag ? "--require-sandbox 1" : "PT_WORKER_REQUIRE_SANDBOX=1");
    DoctorRun how{.before = {WITHOUT_LANDLOCK}};
    if (by_flag) {
      how.flags = {"--require-sandbox", "1"};
    } else {
      how.env = {"PT_WORKER_REQUIRE_SANDBOX=1"};
    }
    const probe::ChildOutcome run = Doctor(*server, Runner(dir, "0.1.3\\n"), how);
    EXPECT_EQ(run.code, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("ffmpeg's sandbox: missing: the kernel has no Landlock"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("worker run refuses to start"), std::string::npos) << run.out;
  }
}

}  // namespace
}  // namespace mc::worker
