// The settings table: defaults, variables, flags over variables, and errors that name the
// variable or flag that was wrong; and docs/worker/worker.md holds the table as the code has it.
#include "worker/probe_contract/worker_config.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"
#include "worker/evidence/kernel_log.h"
#include "worker/probe_contract/platform.h"

namespace mc::worker {
namespace {

Environment Variables(std::map<std::string, std::string> values) {
  return [values](std::string_view name) -> std::optional<std::string> {
    auto it = values.find(std::string(name));
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(WorkerConfig, TheDefaultsAreTheDesignsOnes) {
  Result<WorkerConfig> config = LoadConfig(Variables({}), {});
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->sessions_reserve, 1);
  EXPECT_EQ(config->vram_floor_mb, 1024);
  EXPECT_EQ(config->driver_min, 550);
  EXPECT_EQ(config->probe_interval_s, 300);
  EXPECT_EQ(config->counter_interval_s, 10);
  EXPECT_EQ(config->unavailable_reprobe_s, 60);
  EXPECT_EQ(config->step_deadline_s, 30);
  EXPECT_FALSE(config->sessions_cap);
  EXPECT_FALSE(config->allow_wsl2);
}

TEST(WorkerConfig, VariablesSetAndFlagsOverrideThem) {
  Result<WorkerConfig> config = LoadConfig(Variables({{"PT_WORKER_VRAM_FLOOR_MB", "2048"},
                                                      {"PT_WORKER_GPU_PROBE", "intel-qsv"},
                                                      {"PT_WORKER_SESSIONS_CAP", "5"},
                                                      {"PT_WORKER_ALLOW_WSL2", "yes"},
                                                      {"PT_WORKER_GPU_DEVICES", "0000:01:00.0"}}),
                                           {{"--vram-floor-mb", "512"}});
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->vram_floor_mb, 512);
  EXPECT_EQ(config->probe_module, "intel-qsv");
  EXPECT_EQ(config->sessions_cap, 5);
  EXPECT_TRUE(config->allow_wsl2);
  EXPECT_EQ(config->gpu, "0000:01:00.0");
}

TEST(WorkerConfig, AMalformedVariableIsRefusedNamingIt) {
  Result<WorkerConfig> config = LoadConfig(Variables({{"PT_WORKER_DRIVER_MIN", "550.54"}}), {});
  ASSERT_FALSE(config);
  EXPECT_TRUE(config.failure().IsInvalidInput());
  EXPECT_EQ(config.error(), "PT_WORKER_DRIVER_MIN: \"550.54\" is not a whole number of 0 or more");
}

TEST(WorkerConfig, AMalformedFlagIsRefusedNamingTheFlag) {
  Result<WorkerConfig> config = LoadConfig(Variables({}), {{"--probe-interval", "0"}});
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error(), "--probe-interval: \"0\" is not a whole number of seconds, 1 or more");
}

TEST(WorkerConfig, DocsHoldTheSettingsTableAsTheCodeHasIt) {
  const std::string docs = mc::testing::ReadFile(WORKER_DOCS);
  EXPECT_NE(docs.find(SettingsTableMarkdown()), std::string::npos)
      << "docs/worker/worker.md must hold, verbatim:\n"
      << SettingsTableMarkdown();
}

TEST(Platform, DxgOrAMicrosoftKernelIsWsl2) {
  mc::testing::TempDir dir;
  dir.Write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  dir.Write("proc/version", "Linux version 5.15.167.4-microsoft-standard-WSL2\n");
  dir.Write("dev/dxg", "");
  const Platform platform =
      DetectPlatform({(dir.path() / "dev").string(), (dir.path() / "proc").string()});
  EXPECT_TRUE(platform.wsl2);
  EXPECT_NE(platform.evidence.find("/dxg exists"), std::string::npos) << platform.evidence;
  EXPECT_NE(platform.evidence.find("Microsoft's"), std::string::npos) << platform.evidence;
}

TEST(Platform, ANativeKernelWithoutDxgIsNotWsl2) {
  mc::testing::TempDir dir;
  dir.Write("proc/sys/kernel/osrelease", "6.1.0-28-amd64\n");
  dir.Write("dev/null", "");
  const Platform platform =
      DetectPlatform({(dir.path() / "dev").string(), (dir.path() / "proc").string()});
  EXPECT_FALSE(platform.wsl2);
  EXPECT_EQ(platform.kernel, "6.1.0-28-amd64");
}

TEST(KernelLog, TheLastXidLineIsFound) {
  const std::optional<std::string> xid = FindXid(
      "[   10.1] nvidia: loading out-of-tree module\n"
      "[ 5012.7] NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception\n"
      "[ 6001.2] NVRM: Xid (PCI:0000:01:00): 79, pid=1911, GPU has fallen off the bus.\n"
      "[ 6001.3] usb 1-1: new device\n",
      "0000:01:00.0");
  ASSERT_TRUE(xid);
  EXPECT_NE(xid->find("79, pid=1911"), std::string::npos);
  EXPECT_FALSE(FindXid("[ 1.0] i915 0000:00:02.0: [drm] GuC firmware loaded\n", std::nullopt));
}

TEST(KernelLog, AnXidOfAnotherGpuIsNotThisOnes) {
  const std::string log =
      "[ 5012.7] NVRM: Xid (PCI:0000:41:00): 79, pid=1911, GPU has fallen off the bus.\n"
      "[ 5013.0] NVRM: Xid (PCI:0000:C1:00): 48, DBE\n";
  EXPECT_FALSE(FindXid(log, "0000:01:00.0"));
  EXPECT_NE(FindXid(log, "0000:41:00.0").value_or("").find("79"), std::string::npos);
  // The driver may spell the bus in capitals; the address is matched in any case.
  EXPECT_NE(FindXid(log, "0000:c1:00.0").value_or("").find("48, DBE"), std::string::npos);
  // A GPU whose address is not known takes every Xid line.
  EXPECT_NE(FindXid(log, std::nullopt).value_or("").find("48, DBE"), std::string::npos);
}

TEST(KernelLog, ASavedLogFileIsReadWhole) {
  mc::testing::TempDir dir;
  std::string long_log;
  for (int i = 0; i < 2000; ++i)
    long_log += "[ " + std::to_string(i) + ".0] a line of the kernel log\n";
  long_log += "[ 9999.0] NVRM: Xid (PCI:0000:01:00): 48, DBE\n";
  const std::string path = dir.Write("dmesg.txt", long_log).string();
  Result<std::string> text = ReadKernelLog(path);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*text, long_log);
  EXPECT_EQ(FindXid(*text, "0000:01:00.0").value_or(""),
            "[ 9999.0] NVRM: Xid (PCI:0000:01:00): 48, DBE");
}

TEST(KernelLog, AnUnreadableLogIsAnErrorNamingIt) {
  Result<std::string> text = ReadKernelLog("/nonexistent/kmsg");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().find("/nonexistent/kmsg"), std::string::npos);
}

}  // namespace
}  // namespace mc::worker
