// `media-capabilities worker serve` end to end: the real binary serving on loopback, on this
// machine with no GPU, on the recorded GeForce through tests/fakenv/run-on and on a recorded
// Intel GPU through tests/fakeva/run-on. Every /status is checked by the real JSON Schema
// validator and every /metrics by the real Prometheus parser.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>

#include "serve_process.h"
#include "status_checks.h"
#include "support/fake_sysfs.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using worker::testing::Answer;
using worker::testing::GetWhenGathered;
using worker::testing::ServeProcess;

constexpr std::chrono::seconds kStartTimeout{30};

// ServeArgv is `worker serve` with an empty kernel log and the state and work directories of
// the test's own, so that nothing of this machine decides what it serves.
std::vector<std::string> ServeArgv(const mc::testing::TempDir& dir,
                                   std::vector<std::string> extra) {
  std::vector<std::string> argv = {MEDIA_CAP_BINARY,
                                   "worker",
                                   "serve",
                                   "--kernel-log",
                                   dir.Write("empty-kmsg", "").string(),
                                   "--state-dir",
                                   (dir.path() / "state").string(),
                                   "--work-dir",
                                   (dir.path() / "work").string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

std::vector<std::string> ThroughRunOn(const std::string& script,
                                      const std::vector<std::string>& fixtures,
                                      const std::vector<std::string>& command) {
  std::vector<std::string> argv = {script};
  argv.insert(argv.end(), fixtures.begin(), fixtures.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

// Served is what one server said: its address, its /status and its /metrics.
struct Served {
  std::string address;
  json status;
  json metrics;
};

Served Serve(const mc::testing::TempDir& dir, ServeProcess& server) {
  Served served;
  const std::optional<std::string> address = server.ListeningOn(kStartTimeout);
  EXPECT_TRUE(address) << server.Log();
  if (!address) return served;
  served.address = *address;
  const Answer status = GetWhenGathered(*address, "/status", kStartTimeout);
  EXPECT_EQ(status.status, 200) << status.body << server.Log();
  EXPECT_EQ(status.content_type, "application/json");
  served.status = json::parse(status.body, nullptr, false);
  EXPECT_FALSE(served.status.is_discarded()) << status.body;
  const probe::ChildOutcome validated = worker::testing::ValidateAgainstSchema(dir, {status.body});
  EXPECT_EQ(validated.code, 0) << validated.out << validated.err;

  const Answer metrics = GetWhenGathered(*address, "/metrics", kStartTimeout);
  EXPECT_EQ(metrics.status, 200) << metrics.body;
  EXPECT_TRUE(metrics.content_type.starts_with("text/plain; version=0.0.4"))
      << metrics.content_type;
  std::string error;
  served.metrics = worker::testing::ParseMetrics(dir, metrics.body, error);
  EXPECT_FALSE(served.metrics.is_discarded()) << error << metrics.body;
  return served;
}

TEST(WorkerServe, OnThisMachineWithNoGpuStatusSaysGpuUnavailableWithTheReason) {
  mc::testing::TempDir dir;
  dir.Write("sys/class/drm/.keep", "");
  ServeProcess server(ServeArgv(dir, testing::CommandLine({{"--gpu", "pci-0000-00-02-0"},
                                                           testing::FakeMachineFlags(dir.path()),
                                                           {"--listen", "127.0.0.1:0"}})),
                      {}, (dir.path() / "serve.log").string());
  const Served served = Serve(dir, server);
  EXPECT_EQ(served.status["state"], "GPU_UNAVAILABLE");
  EXPECT_NE(served.status["state_reason"].get<std::string>().find("no GPU \"pci-0000-00-02-0\""),
            std::string::npos)
      << served.status["state_reason"];
  EXPECT_EQ(served.status["gpu"]["vendor"], "none");
  ASSERT_TRUE(served.metrics.contains("pt_worker_up"));
  EXPECT_EQ(served.metrics["pt_worker_up"]["samples"][0][2], 1.0);
  EXPECT_EQ(served.metrics["pt_worker_probe_ok"]["samples"][0][2], 0.0);
  EXPECT_EQ(server.Stop(SIGTERM, std::chrono::seconds(10)), 0) << server.Log();
  EXPECT_NE(server.Log().find("SIGTERM; stopping"), std::string::npos) << server.Log();
}

// The default address, as the binary states it: no port of this machine is needed.
TEST(WorkerServe, ItsDefaultAddressIsLoopbackPort9464) {
  const probe::ChildOutcome help =
      testing::RunCommand({MEDIA_CAP_BINARY, "worker", "serve", "--help"});
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("--listen TEXT=127.0.0.1:9464"), std::string::npos) << help.out;
}

// With no --listen it serves there. Another process may hold that port: the test then says
// so and skips, since the default was checked above.
TEST(WorkerServe, ListensOnLoopbackPort9464UnlessTold) {
  mc::testing::TempDir dir;
  dir.Write("sys/class/drm/.keep", "");
  ServeProcess server(
      ServeArgv(dir, testing::CommandLine({{"--gpu", "0"}, testing::FakeMachineFlags(dir.path())})),
      {}, (dir.path() / "serve.log").string());
  const std::optional<std::string> address = server.ListeningOn(kStartTimeout);
  if (!address &&
      server.Log().find("127.0.0.1:9464: Address already in use") != std::string::npos) {
    GTEST_SKIP() << "another process on this machine holds 127.0.0.1:9464";
  }
  ASSERT_TRUE(address) << server.Log();
  EXPECT_EQ(*address, "127.0.0.1:9464");
  EXPECT_EQ(GetWhenGathered(*address, "/status", kStartTimeout).status, 200);
  EXPECT_EQ(server.Stop(SIGINT, std::chrono::seconds(10)), 0) << server.Log();
}

TEST(WorkerServe, AnAddressItCannotListenOnFailsNamingIt) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run =
      testing::RunCommand(ServeArgv(dir, {"--gpu", "0", "--listen", "nowhere"}));
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("--listen: nowhere is not HOST:PORT"), std::string::npos) << run.err;
}

TEST(WorkerServe, OnTheRecordedGeForceThroughRunOnItServesTheNvidiaStatus) {
  mc::testing::TempDir dir;
  const std::string record = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";
  // No --sysfs-root, --dev-root or --nvml-library: run-on's environment points them at its
  // machine.
  ServeProcess server(
      ThroughRunOn(FAKENV_RUN_ON, {record},
                   ServeArgv(dir, {"--gpu", "0000:01:00.0", "--listen", "127.0.0.1:0"})),
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}, (dir.path() / "serve.log").string());
  const Served served = Serve(dir, server);
  EXPECT_EQ(served.status["probe"]["ok"], true) << served.status["probe"];
  EXPECT_EQ(served.status["gpu"]["vendor"], "nvidia");
  EXPECT_EQ(served.status["gpu"]["generation"], "Ada");
  EXPECT_EQ(served.status["gpu"]["driver"], "570.133.07");
  EXPECT_EQ(served.status["gpu"]["sessions"]["cap"], 8);
  ASSERT_FALSE(served.status["gpu"]["devices"].empty());
  EXPECT_TRUE(served.status["gpu"]["devices"][0]["vram_total_mb"].is_number())
      << served.status["gpu"];
  // The self-test has not run, so nothing yet proves the GPU encodes.
  EXPECT_EQ(served.status["state"], "GPU_UNAVAILABLE");
  ASSERT_TRUE(served.metrics.contains("pt_worker_gpu_sessions"));
  EXPECT_EQ(served.metrics["pt_worker_gpu_sessions"]["samples"][0][1]["vendor"], "nvidia");
  EXPECT_EQ(served.metrics["pt_worker_probe_ok"]["samples"][0][2], 1.0);
  EXPECT_EQ(server.Stop(SIGTERM, std::chrono::seconds(10)), 0) << server.Log();
}

TEST(WorkerServe, AnXidOfThisGpuIsOfflineAndAnXidOfItsSiblingIsNot) {
  const std::string record = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";
  const std::string sibling =
      "4,501,5012700000,-;NVRM: Xid (PCI:0000:41:00): 79, GPU has fallen off the bus.\n";
  for (const bool ours : {false, true}) {
    SCOPED_TRACE(ours ? "an Xid of this GPU" : "an Xid of its sibling alone");
    mc::testing::TempDir dir;
    const std::string log =
        dir.Write(
               "xid-kmsg",
               sibling + (ours ? "4,502,5013000000,-;NVRM: Xid (PCI:0000:01:00): 48, DBE\n" : ""))
            .string();
    std::vector<std::string> argv =
        ServeArgv(dir, {"--gpu", "0000:01:00.0", "--listen", "127.0.0.1:0"});
    argv[4] = log;  // the kernel log ServeArgv names
    ServeProcess server(ThroughRunOn(FAKENV_RUN_ON, {record}, argv),
                        {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR},
                        (dir.path() / "serve.log").string());
    const Served served = Serve(dir, server);
    if (ours) {
      EXPECT_EQ(served.status["state"], "OFFLINE");
      EXPECT_NE(served.status["state_reason"].get<std::string>().find("48, DBE"),
                std::string::npos);
    } else {
      // Not OFFLINE: what keeps it from jobs is only that its self-test has not run.
      EXPECT_EQ(served.status["state"], "GPU_UNAVAILABLE");
      EXPECT_NE(served.status["state_reason"].get<std::string>().find("self-test"),
                std::string::npos);
    }
    EXPECT_EQ(server.Stop(SIGTERM, std::chrono::seconds(10)), 0) << server.Log();
  }
}

TEST(WorkerServe, OnARecordedIntelGpuThroughRunOnItServesTheVaStatus) {
  mc::testing::TempDir dir;
  const std::string dump = std::string(FAKEVA_DUMPS_DIR) + "/intel-ihd-dg1-gen12-24.1.txt";
  ServeProcess server(
      ThroughRunOn(FAKEVA_RUN_ON, {dump},
                   ServeArgv(dir, {"--gpu", "pci-0000-01-00-0", "--listen", "127.0.0.1:0"})),
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}, (dir.path() / "serve.log").string());
  const Served served = Serve(dir, server);
  EXPECT_EQ(served.status["probe"]["ok"], true) << served.status["probe"];
  EXPECT_EQ(served.status["gpu"]["vendor"], "intel");
  EXPECT_EQ(served.status["gpu"]["probe_module"], "vaapi");
  EXPECT_EQ(served.status["gpu"]["kernel_module"], "i915");
  EXPECT_EQ(served.status["gpu"]["capabilities"]["h264_enc"], 1);
  EXPECT_EQ(served.metrics["pt_worker_probe_ok"]["samples"][0][1]["vendor"], "intel");
  EXPECT_EQ(server.Stop(SIGTERM, std::chrono::seconds(10)), 0) << server.Log();
}

}  // namespace
}  // namespace mc
