// The settings table: defaults, variables, flags over variables, and errors that name the
// variable or flag that was wrong; and docs/worker/worker.md holds the table as the code has it.
#include "worker/probe_contract/worker_config.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

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
  ASSERT_TRUE(config) << config.error_message();
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
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->vram_floor_mb, 512);
  EXPECT_EQ(config->probe_module, "intel-qsv");
  EXPECT_EQ(config->sessions_cap, 5);
  EXPECT_TRUE(config->allow_wsl2);
  EXPECT_EQ(config->gpu, "0000:01:00.0");
}

TEST(WorkerConfig, AMalformedVariableIsRefusedNamingIt) {
  Result<WorkerConfig> config = LoadConfig(Variables({{"PT_WORKER_DRIVER_MIN", "550.54"}}), {});
  ASSERT_FALSE(config);
  EXPECT_TRUE(config.error().IsInvalidInput());
  EXPECT_EQ(config.error_message(),
            "PT_WORKER_DRIVER_MIN: \"550.54\" is not a whole number of 0 or more");
}

TEST(WorkerConfig, AMalformedFlagIsRefusedNamingTheFlag) {
  Result<WorkerConfig> config = LoadConfig(Variables({}), {{"--probe-interval", "0"}});
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error_message(),
            "--probe-interval: \"0\" is not a whole number of seconds, 1 or more");
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

TEST(KernelLog, TheLastXidRecordIsFound) {
  const std::optional<XidRecord> xid = FindXid(
      "6,1100,10100000,-;nvidia: loading out-of-tree module\n"
      "4,1201,5012700000,-;NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception\n"
      " SUBSYSTEM=pci\n"
      "4,1305,6001200000,-;NVRM: Xid (PCI:0000:01:00): 79, pid=1911, GPU has fallen off the "
      "bus.\n"
      "6,1306,6001300000,-;usb 1-1: new device\n",
      "0000:01:00.0");
  ASSERT_TRUE(xid);
  EXPECT_EQ(xid->sequence, 1305u);
  EXPECT_EQ(xid->message, "NVRM: Xid (PCI:0000:01:00): 79, pid=1911, GPU has fallen off the bus.");
  EXPECT_FALSE(
      FindXid("6,1,1000000,-;i915 0000:00:02.0: [drm] GuC firmware loaded\n", std::nullopt));
}

TEST(KernelLog, AnXidOfAnotherGpuIsNotThisOnes) {
  const std::string log =
      "4,501,5012700000,-;NVRM: Xid (PCI:0000:41:00): 79, pid=1911, GPU has fallen off the bus.\n"
      "4,502,5013000000,-;NVRM: Xid (PCI:0000:C1:00): 48, DBE\n";
  EXPECT_FALSE(FindXid(log, "0000:01:00.0"));
  EXPECT_NE(FindXid(log, "0000:41:00.0").value_or(XidRecord{}).message.find("79"),
            std::string::npos);
  // The driver may spell the bus in capitals; the address is matched in any case.
  EXPECT_NE(FindXid(log, "0000:c1:00.0").value_or(XidRecord{}).message.find("48, DBE"),
            std::string::npos);
  // A GPU whose address is not known takes every Xid record.
  EXPECT_NE(FindXid(log, std::nullopt).value_or(XidRecord{}).message.find("48, DBE"),
            std::string::npos);
}

// x86's segfault report names the file the fault hit, and anyone can name a file so; the
// kernel writes it, but not at the start of the message, where the driver's words stand.
TEST(KernelLog, ASegfaultReportNamingAFileAfterAnXidCountsForNothing) {
  const std::string log =
      "6,900,7000000000,-;python3.11[31600]: segfault at 0 ip 00007f sp 00007ffd error 4 in "
      "NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus[7f+1000]\n";
  EXPECT_FALSE(FindXid(log, "0000:01:00.0"));
  EXPECT_FALSE(FindXid(log, std::nullopt));
}

// A write to /dev/kmsg is of facility user (1) whatever it asks: "<4>NVRM: Xid ..." from a
// process is priority 12, never the kernel's.
TEST(KernelLog, ARecordAProcessWroteToTheKernelLogCountsForNothing) {
  const std::string log =
      "12,901,7000000001,-;NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
      "14,902,7000000002,-;NVRM: Xid (PCI:0000:01:00): 48, DBE\n";
  EXPECT_FALSE(FindXid(log, "0000:01:00.0"));
  // A saved dmesg's text says nothing of the facility either.
  EXPECT_FALSE(FindXid("[ 5012.7] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n",
                       "0000:01:00.0"));
}

TEST(KernelLog, AnAcknowledgedRecordCountsNoMoreButALaterOneDoes) {
  std::string log = "4,1201,5012700000,-;NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off.\n";
  EXPECT_FALSE(FindXid(log, "0000:01:00.0", /*acknowledged=*/1201));
  log += "4,1202,5012800000,-;NVRM: Xid (PCI:0000:01:00): 48, DBE\n";
  const std::optional<XidRecord> later = FindXid(log, "0000:01:00.0", 1201);
  ASSERT_TRUE(later);
  EXPECT_EQ(later->sequence, 1202u);
}

TEST(KernelLog, ASavedLogFileIsReadWhole) {
  mc::testing::TempDir dir;
  std::string long_log;
  for (int i = 0; i < 2000; ++i)
    long_log += "6," + std::to_string(i) + "," + std::to_string(i) + "000000,-;a line of the log\n";
  long_log += "4,2000,9999000000,-;NVRM: Xid (PCI:0000:01:00): 48, DBE\n";
  const std::string path = dir.Write("kmsg.txt", long_log).string();
  Result<std::string> text = ReadKernelLog(path);
  ASSERT_TRUE(text) << text.error_message();
  EXPECT_EQ(*text, long_log);
  EXPECT_EQ(FindXid(*text, "0000:01:00.0").value_or(XidRecord{}).message,
            "NVRM: Xid (PCI:0000:01:00): 48, DBE");
}

// Debian's kernel.dmesg_restrict=1 and the unit's DynamicUser leave /dev/kmsg unreadable: the Xid
// check cannot run, and the error says how to allow it. A file this user may not read stands in.
TEST(KernelLog, ALogThisUserMayNotReadSaysHowToAllowIt) {
  mc::testing::TempDir dir;
  const std::filesystem::path path = dir.Write("kmsg", "4,1,1,-;NVRM: Xid (PCI:0000:01:00): 79\n");
  std::filesystem::permissions(path, std::filesystem::perms::none);
  std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
  std::string message;
  if (geteuid() != 0) {
    Result<std::string> text = ReadKernelLog(path.string());
    ASSERT_FALSE(text);
    message = text.error_message();
  } else {
    // Root reads any file: a child that became nobody reads it instead.
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t child = fork();
    if (child == 0) {
      close(pipe_ends[0]);
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
      Result<std::string> text = ReadKernelLog(path.string());
      const std::string said = text ? "read it" : text.error_message();
      [[maybe_unused]] ssize_t n = write(pipe_ends[1], said.data(), said.size());
      _exit(0);
    }
    close(pipe_ends[1]);
    char buffer[4096];
    for (ssize_t got; (got = read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
      message.append(buffer, static_cast<std::size_t>(got));
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_NE(message.find("cannot read the kernel log " + path.string()), std::string::npos)
      << message;
  EXPECT_NE(message.find("AmbientCapabilities=CAP_SYSLOG"), std::string::npos) << message;
  EXPECT_NE(message.find("DeviceAllow=/dev/kmsg r"), std::string::npos) << message;
  EXPECT_NE(message.find("kernel.dmesg_restrict=0"), std::string::npos) << message;
}

TEST(KernelLog, AnUnreadableLogIsAnErrorNamingIt) {
  Result<std::string> text = ReadKernelLog("/nonexistent/kmsg");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error_message().find("/nonexistent/kmsg"), std::string::npos);
}

}  // namespace
}  // namespace mc::worker
