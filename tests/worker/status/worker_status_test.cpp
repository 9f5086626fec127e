// `media-capabilities worker status` end to end: the real binary on the fake NVIDIA and VA
// machines and on none, every document it prints checked by the real JSON Schema validator,
// its Prometheus text by the real parser.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "status_checks.h"
#include "support/fake_sysfs.h"
#include "worker/probe_contract/landlock.h"
#include "worker/self_test/self_test_state.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct StatusRun {
  probe::ChildOutcome outcome;
  json document;
};

// OwnDirectories are the state and work directories of the test's own, so that no test reads
// the machine's: a self-test run there would otherwise decide the state.
std::vector<std::string> OwnDirectories(const mc::testing::TempDir& dir) {
  return {"--state-dir", (dir.path() / "state").string(), "--work-dir",
          (dir.path() / "work").string()};
}

// Status runs `worker status` with the kernel log read from an empty file (so that this
// machine's own log does not decide the state) unless the test names one, and with the test's
// own directories.
StatusRun Status(const mc::testing::TempDir& dir, std::vector<std::string> extra,
                 const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {MEDIA_CAP_BINARY, "worker", "status", "--output", "json"};
  if (std::find(extra.begin(), extra.end(), "--kernel-log") == extra.end()) {
    extra.insert(extra.end(), {"--kernel-log", dir.Write("empty-kmsg", "").string()});
  }
  const std::vector<std::string> own = OwnDirectories(dir);
  extra.insert(extra.end(), own.begin(), own.end());
  argv.insert(argv.end(), extra.begin(), extra.end());
  StatusRun run;
  run.outcome = testing::RunCommand(argv, env);
  run.document = json::parse(run.outcome.out, nullptr, false);
  EXPECT_FALSE(run.document.is_discarded()) << run.outcome.out << run.outcome.err;
  return run;
}

void ExpectValid(const mc::testing::TempDir& dir, const StatusRun& run) {
  const probe::ChildOutcome validated =
      worker::testing::ValidateAgainstSchema(dir, {run.outcome.out});
  EXPECT_EQ(validated.code, 0) << validated.out << validated.err;
}

// StatusOnTheGeForce runs `worker status` on the fake RTX 4090 through tests/fakenv/run-on,
// with `before` (a program that runs the rest) in front of the binary, and the test's own
// directories and empty kernel log.
probe::ChildOutcome StatusOnTheGeForce(const mc::testing::TempDir& dir,
                                       const std::vector<std::string>& before,
                                       const std::string& output,
                                       const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {
      FAKENV_RUN_ON, std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json", "--"};
  argv.insert(argv.end(), before.begin(), before.end());
  argv.insert(argv.end(), {MEDIA_CAP_BINARY, "worker", "status", "--gpu", "0", "--output", output,
                           "--kernel-log", dir.Write("empty-kmsg", "").string()});
  const std::vector<std::string> own = OwnDirectories(dir);
  argv.insert(argv.end(), own.begin(), own.end());
  std::vector<std::string> environment = {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR};
  environment.insert(environment.end(), env.begin(), env.end());
  return testing::RunCommand(argv, environment);
}

StatusRun DocumentOf(const probe::ChildOutcome& outcome) {
  StatusRun run{.outcome = outcome, .document = json::parse(outcome.out, nullptr, false)};
  EXPECT_FALSE(run.document.is_discarded()) << outcome.out << outcome.err;
  return run;
}

TEST(WorkerStatus, OnThisMachineWithNoGpuItSaysGpuUnavailable) {
  mc::testing::TempDir dir;
  dir.Write("sys/class/drm/.keep", "");
  const StatusRun run = Status(dir, testing::CommandLine({{"--gpu", "pci-0000-00-02-0"},
                                                          testing::FakeMachineFlags(dir.path())}));
  EXPECT_EQ(run.outcome.code, 0) << run.outcome.err;
  EXPECT_EQ(run.document["state"], "GPU_UNAVAILABLE");
  EXPECT_NE(run.document["state_reason"].get<std::string>().find("no GPU \"pci-0000-00-02-0\""),
            std::string::npos);
  EXPECT_EQ(run.document["gpu"]["vendor"], "none");
  EXPECT_EQ(run.document["concurrency"], 0);
  EXPECT_EQ(run.document["concurrency_bound_by"], "gpu");
  ExpectValid(dir, run);
}

TEST(WorkerStatus, OnARecordedGeForceItIsUnavailableUntilTheSelfTestHasRun) {
  mc::testing::TempDir dir;
  const std::string record = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";
  const fs::path machine = dir.path() / "machine";
  ASSERT_EQ(testing::RunCommand({FAKENV_STAGE, record, machine.string()}).code, 0);
  const StatusRun run = Status(
      dir,
      testing::CommandLine({{"--gpu", "0000:01:00.0"}, testing::FakeNvidiaMachineFlags(machine)}),
      {"LD_LIBRARY_PATH=" + (machine / "lib").string(), "FAKENV_RECORD=" + record});
  EXPECT_EQ(run.document["state"], "GPU_UNAVAILABLE");
  EXPECT_NE(run.document["state_reason"].get<std::string>().find("self-test has not run"),
            std::string::npos)
      << run.document["state_reason"];
  EXPECT_EQ(run.document["probe"]["ok"], true);
  EXPECT_EQ(run.document["gpu"]["vendor"], "nvidia");
  EXPECT_EQ(run.document["gpu"]["probe_module"], "nvidia-nvenc");
  EXPECT_EQ(run.document["gpu"]["generation"], "Ada");
  EXPECT_EQ(run.document["gpu"]["driver"], "570.133.07");
  EXPECT_EQ(run.document["gpu"]["sessions"]["cap"], 8);
  EXPECT_EQ(run.document["gpu"]["sessions"]["cap_source"], "driver_class_table");
  EXPECT_EQ(run.document["gpu"]["capabilities"]["av1_enc"], 1);
  ExpectValid(dir, run);
}

TEST(WorkerStatus, ASelfTestReportIsTakenOnlyForTheCardAndDriverItTested) {
  mc::testing::TempDir dir;
  const std::string record = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";
  const fs::path machine = dir.path() / "machine";
  ASSERT_EQ(testing::RunCommand({FAKENV_STAGE, record, machine.string()}).code, 0);
  const std::string report_path =
      worker::SelfTestStatePath((dir.path() / "state").string(), "pci-0000-01-00-0");
  const auto status_with = [&](const worker::TestedGpu& gpu) {
    worker::SelfTestReport report{
        .ts = "2026-12-05T10:00:00Z", .gpu = gpu, .ok = true, .evidence = "NVML", .detail = ""};
    EXPECT_TRUE(worker::SaveSelfTest(report_path, report));
    return Status(
        dir,
        testing::CommandLine({{"--gpu", "0000:01:00.0"}, testing::FakeNvidiaMachineFlags(machine)}),
        {"LD_LIBRARY_PATH=" + (machine / "lib").string(), "FAKENV_RECORD=" + record});
  };
  // Another board in the same slot, then this board under another driver: not this GPU's.
  for (const worker::TestedGpu& other :
       {worker::TestedGpu{"10de:2704", "570.133.07"}, worker::TestedGpu{"10de:2684", "580.65.06"},
        worker::TestedGpu{}}) {
    const StatusRun run = status_with(other);
    EXPECT_TRUE(run.document["gpu"]["self_test"].is_null()) << other.pci_ids;
    EXPECT_NE(run.document["problems"].dump().find("the self-test must run again"),
              std::string::npos)
        << run.document["problems"];
  }
  const StatusRun same = status_with({"10de:2684", "570.133.07", "0000:01:00.0", ""});
  EXPECT_EQ(same.document["gpu"]["self_test"]["ok"], true) << same.document["problems"];
  ExpectValid(dir, same);
}

// A board of the same model and driver moved into the slot, or the card moved to another
// slot, or a report that names no board (an older worker's): each is another board's.
TEST(WorkerStatus, ASelfTestReportIsRefusedForAnotherBoardOfTheSameModelAndDriver) {
  mc::testing::TempDir dir;
  json record =
      json::parse(std::ifstream(std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json"));
  record["identity"]["subsystemVendor"] = "1043";
  record["identity"]["subsystemDevice"] = "889d";
  const std::string record_path = dir.Write("asus-4090.json", record.dump()).string();
  const fs::path machine = dir.path() / "machine";
  ASSERT_EQ(testing::RunCommand({FAKENV_STAGE, record_path, machine.string()}).code, 0);
  const std::string report_path =
      worker::SelfTestStatePath((dir.path() / "state").string(), "pci-0000-01-00-0");
  const auto status_with = [&](const worker::TestedGpu& gpu) {
    worker::SelfTestReport report{
        .ts = "2026-12-05T10:00:00Z", .gpu = gpu, .ok = true, .evidence = "NVML", .detail = ""};
    EXPECT_TRUE(worker::SaveSelfTest(report_path, report));
    return Status(
        dir,
        testing::CommandLine({{"--gpu", "0000:01:00.0"}, testing::FakeNvidiaMachineFlags(machine)}),
        {"LD_LIBRARY_PATH=" + (machine / "lib").string(), "FAKENV_RECORD=" + record_path});
  };
  const std::vector<std::pair<worker::TestedGpu, std::string>> others = {
      {{"10de:2684", "570.133.07", "0000:01:00.0", "1462:5103"}, "board ids 1462:5103"},
      {{"10de:2684", "570.133.07", "0000:02:00.0", "1043:889d"}, "at 0000:02:00.0"},
      {{"10de:2684", "570.133.07", "0000:01:00.0", ""}, "board ids unknown"},
      {{"10de:2684", "570.133.07"}, "a report of an older worker"}};
  for (const auto& [other, words] : others) {
    const StatusRun run = status_with(other);
    EXPECT_TRUE(run.document["gpu"]["self_test"].is_null()) << words;
    const std::string problems = run.document["problems"].dump();
    EXPECT_NE(problems.find(words), std::string::npos) << problems;
    EXPECT_NE(problems.find("the self-test must run again"), std::string::npos) << problems;
  }
  const StatusRun same = status_with({"10de:2684", "570.133.07", "0000:01:00.0", "1043:889d"});
  EXPECT_EQ(same.document["gpu"]["self_test"]["ok"], true) << same.document["problems"];
  ExpectValid(dir, same);
}

TEST(WorkerStatus, OnARecordedIntelGpuTheKernelModuleIsItsDriver) {
  mc::testing::TempDir dir;
  const std::string dump = std::string(FAKEVA_DUMPS_DIR) + "/intel-ihd-dg1-gen12-24.1.txt";
  const fs::path machine = dir.path() / "machine";
  ASSERT_EQ(testing::RunCommand({FAKEVA_FAKE_MACHINE, machine.string(), dump}).code, 0);
  const StatusRun run =
      Status(dir,
             testing::CommandLine({{"--gpu", "pci-0000-01-00-0", "--probe-module", "intel-qsv"},
                                   testing::FakeMachineFlags(machine)}),
             {"LD_PRELOAD=" FAKEVA_PRELOAD, "LIBVA_DRIVERS_PATH=" FAKEVA_DRIVER_DIR,
              "LIBVA_DRIVER_NAME=fakeva", "FAKEVA_DUMP=" + dump});
  EXPECT_EQ(run.document["gpu"]["vendor"], "intel");
  EXPECT_EQ(run.document["gpu"]["probe_module"], "intel-qsv");
  EXPECT_EQ(run.document["gpu"]["kernel_module"], "i915");
  EXPECT_EQ(run.document["gpu"]["sessions"]["cap_source"], "none");
  EXPECT_TRUE(run.document["concurrency_limiters"]["gpu_sessions"].is_null());
  ExpectValid(dir, run);
}

TEST(WorkerStatus, AnXidInTheKernelLogIsOffline) {
  mc::testing::TempDir dir;
  const std::string log =
      dir.Write("kmsg",
                "4,1201,5012345,-;NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n")
          .string();
  const StatusRun run = Status(dir, {"--gpu", "pci-0000-01-00-0", "--kernel-log", log});
  EXPECT_EQ(run.document["state"], "OFFLINE");
  EXPECT_NE(run.document["state_reason"].get<std::string>().find("fallen off the bus"),
            std::string::npos);
  ExpectValid(dir, run);
}

TEST(WorkerStatus, OnWsl2ItSaysSoAndStaysUnavailableUnlessAllowed) {
  mc::testing::TempDir dir;
  dir.Write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  dir.Write("proc/loadavg", "0.10 0.20 0.30 1/100 4242\n");
  dir.Write("proc/meminfo", "MemTotal: 16000000 kB\nMemAvailable: 8000000 kB\n");
  dir.Write("dev/dxg", "");
  const std::vector<std::string> roots = {"--gpu",       "pci-0000-01-00-0",
                                          "--proc-root", (dir.path() / "proc").string(),
                                          "--dev-root",  (dir.path() / "dev").string()};
  const StatusRun refused = Status(dir, roots);
  EXPECT_EQ(refused.document["state"], "GPU_UNAVAILABLE");
  EXPECT_EQ(refused.document["platform"]["wsl2"], true);
  EXPECT_EQ(refused.document["platform"]["allowed"], false);
  EXPECT_NE(refused.document["state_reason"].get<std::string>().find("WSL2"), std::string::npos);
  ExpectValid(dir, refused);

  const StatusRun allowed = Status(dir, roots, {"PT_WORKER_ALLOW_WSL2=1"});
  EXPECT_EQ(allowed.document["platform"]["allowed"], true);
  // Allowed on WSL2, it still needs a GPU that passes its probe.
  EXPECT_EQ(allowed.document["state"], "GPU_UNAVAILABLE");
  EXPECT_EQ(allowed.document["state_reason"].get<std::string>().find("WSL2"), std::string::npos);
}

TEST(WorkerStatus, OnAKernelWithLandlockTheDocumentSaysEachJobsFfmpegRunsBoxed) {
  const int abi = worker::LandlockAbi();
  if (abi == 0) GTEST_SKIP() << "this kernel has no Landlock";
  mc::testing::TempDir dir;
  const StatusRun run = DocumentOf(StatusOnTheGeForce(dir, {}, "json"));
  EXPECT_EQ(run.outcome.code, 0) << run.outcome.err;
  EXPECT_EQ(run.document["gpu"]["vendor"], "nvidia");
  EXPECT_EQ(run.document["sandbox"],
            (json{{"landlock_abi", abi},
                  {"ffmpeg_boxed", true},
                  {"required", false},
                  {"enforced", worker::SandboxEnforced(worker::FfmpegSandboxOf(abi, false))}}));
  ExpectValid(dir, run);
  const probe::ChildOutcome table = StatusOnTheGeForce(dir, {}, "table");
  EXPECT_NE(table.out.find("sandbox:      boxed: every ffmpeg and ffprobe that reads an upload "
                           "runs boxed with no new privileges and no capabilities"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("landlock ABI " + std::to_string(abi) + ": filesystem"),
            std::string::npos)
      << table.out;
}

TEST(WorkerStatus, OnAKernelWithoutLandlockTheDocumentSaysFfmpegRunsUnboxed) {
  mc::testing::TempDir dir;
  const StatusRun run = DocumentOf(StatusOnTheGeForce(dir, {WITHOUT_LANDLOCK}, "json"));
  EXPECT_EQ(run.outcome.code, 0) << run.outcome.err;
  // The same GPU as with Landlock: only the box differs.
  EXPECT_EQ(run.document["gpu"]["vendor"], "nvidia");
  EXPECT_EQ(run.document["sandbox"], (json{{"landlock_abi", 0},
                                           {"ffmpeg_boxed", false},
                                           {"required", false},
                                           {"enforced", json::array()}}));
  ExpectValid(dir, run);

  const probe::ChildOutcome table = StatusOnTheGeForce(dir, {WITHOUT_LANDLOCK}, "table");
  EXPECT_NE(table.out.find("sandbox:      unboxed: the kernel has no Landlock"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("PT_WORKER_REQUIRE_SANDBOX=1 refuses that"), std::string::npos)
      << table.out;

  const probe::ChildOutcome metrics = StatusOnTheGeForce(dir, {WITHOUT_LANDLOCK}, "prometheus");
  std::string error;
  const json families = worker::testing::ParseMetrics(dir, metrics.out, error);
  ASSERT_FALSE(families.is_discarded()) << error << metrics.out;
  EXPECT_EQ(families["pt_worker_ffmpeg_boxed"]["samples"][0][2], 0.0);
  EXPECT_EQ(families["pt_worker_landlock_abi"]["samples"][0][2], 0.0);
}

TEST(WorkerStatus, OnAKernelWithoutLandlockARequiredSandboxIsMissing) {
  mc::testing::TempDir dir;
  const StatusRun run = DocumentOf(
      StatusOnTheGeForce(dir, {WITHOUT_LANDLOCK}, "json", {"PT_WORKER_REQUIRE_SANDBOX=1"}));
  // The status is an answer whatever it says; `worker run` is what refuses to start.
  EXPECT_EQ(run.outcome.code, 0) << run.outcome.err;
  EXPECT_EQ(run.document["sandbox"], (json{{"landlock_abi", 0},
                                           {"ffmpeg_boxed", false},
                                           {"required", true},
                                           {"enforced", json::array()}}));
  ExpectValid(dir, run);
  const probe::ChildOutcome table =
      StatusOnTheGeForce(dir, {WITHOUT_LANDLOCK}, "table", {"PT_WORKER_REQUIRE_SANDBOX=1"});
  EXPECT_NE(table.out.find("sandbox:      missing: the kernel has no Landlock"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("worker run refuses to start"), std::string::npos) << table.out;
}

TEST(WorkerStatus, AMalformedVariableIsRefusedNamingIt) {
  mc::testing::TempDir dir;
  std::vector<std::string> argv = {MEDIA_CAP_BINARY, "worker", "status", "--gpu", "x"};
  const std::vector<std::string> own = OwnDirectories(dir);
  argv.insert(argv.end(), own.begin(), own.end());
  const probe::ChildOutcome run = testing::RunCommand(argv, {"PT_WORKER_VRAM_FLOOR_MB=lots"});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("PT_WORKER_VRAM_FLOOR_MB: \"lots\""), std::string::npos) << run.err;
}

TEST(WorkerStatus, ItsPrometheusTextIsReadByARealParser) {
  mc::testing::TempDir dir;
  std::vector<std::string> argv = {
      MEDIA_CAP_BINARY, "worker",           "status",
      "--gpu",          "pci-0000-00-02-0", "--output",
      "prometheus",     "--kernel-log",     dir.Write("kmsg", "").string()};
  const std::vector<std::string> own = OwnDirectories(dir);
  argv.insert(argv.end(), own.begin(), own.end());
  const probe::ChildOutcome run = testing::RunCommand(argv);
  ASSERT_EQ(run.code, 0) << run.err;
  std::string error;
  const json families = worker::testing::ParseMetrics(dir, run.out, error);
  ASSERT_FALSE(families.is_discarded()) << error << run.out;
  EXPECT_EQ(families["pt_worker_up"]["samples"][0][2], 1.0);
  EXPECT_EQ(families["pt_worker_gpu_sessions"]["samples"][0][1]["vendor"], "none");
  EXPECT_TRUE(families.contains("pt_worker_hw_evidence_ok"));
}

}  // namespace
}  // namespace mc
