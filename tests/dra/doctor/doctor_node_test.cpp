// `media-capabilities doctor` as an operator runs it, on fake machines: tests/fakeva's (the
// real libva loads the fake VA driver) and tests/fakenv's (nv-codec-headers' real loader and
// the dynamic loader find the fake NVIDIA libraries). Only the kernel's files (sysfs,
// debugfs, /dev, /proc) and the drivers are faked; each test breaks one thing the way a
// real node breaks and reads what the doctor says of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/fake_sysfs.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::dra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kLowPowerIhd[] =
    R"(vainfo: Driver version: Intel iHD driver for Intel(R) Gen Graphics - 24.1.5 ()
      VAProfileH264Main               :	VAEntrypointVLD
      VAProfileH264Main               :	VAEntrypointEncSlice
      VAProfileH264Main               :	VAEntrypointEncSliceLP
      VAProfileNone                   :	VAEntrypointVideoProc
)";

constexpr char kDecodeOnlyIhd[] =
    R"(vainfo: Driver version: Intel iHD driver for Intel(R) Gen Graphics - 24.1.5 ()
      VAProfileH264Main               :	VAEntrypointVLD
)";

constexpr char kPciDevice[] = "machine/sys/devices/pci0000:00/0000:01:00.0";

// One result line of the report.
struct Line {
  std::string status;
  std::string finding;
  std::string remedy;
};

class Doctor : public ::testing::Test {
 protected:
  fs::path Machine() const { return dir_.path() / "machine"; }

  // An Intel machine of tests/fakeva/fake-machine, one GPU per dump, with the card node beside
  // each render node that debugfs is named by.
  void LayOutIntel(const std::vector<std::string>& dumps) {
    std::vector<std::string> argv = {MEDIA_CAP_FAKE_MACHINE, Machine().string()};
    for (std::size_t i = 0; i < dumps.size(); ++i)
      argv.push_back(dir_.Write("dumps/" + std::to_string(i) + ".txt", dumps[i]).string());
    const probe::ChildOutcome made = testing::RunCommand(argv);
    ASSERT_EQ(made.code, 0) << made.err;
    for (std::size_t i = 0; i < dumps.size(); ++i) {
      char address[32];
      std::snprintf(address, sizeof address, "0000:%02zx:00.0", i + 1);
      fs::create_directories(Machine() / "sys/devices/pci0000:00" / address / "drm" /
                             ("card" + std::to_string(i)));
    }
  }

  void WriteHucInfo(const std::string& minor, const std::string& status) {
    dir_.Write("machine/sys/kernel/debug/dri/" + minor + "/gt/uc/huc_info",
               "HuC firmware: i915/adlp_huc.bin\n\tstatus: " + status +
                   "\n\tversion: found 7.9.3\n\tuCode: 589248 bytes\n\tRSA: 256 bytes\n");
  }

  // An NVIDIA machine of tests/fakenv's fakenv_stage, for the record named.
  void LayOutNvidia(const fs::path& record) {
    record_ = record;
    const probe::ChildOutcome made =
        testing::RunCommand({MEDIA_CAP_FAKENV_STAGE, record.string(), Machine().string()});
    ASSERT_EQ(made.code, 0) << made.err;
  }

  // A record like `name` whose replay differs by `replay`.
  fs::path RecordLike(const std::string& name, const json& replay) {
    std::ifstream in(fs::path(MEDIA_CAP_RECORDS_DIR) / name);
    json record = json::parse(in);
    record["replay"] = replay;
    return dir_.Write("records/" + name, record.dump());
  }

  probe::ChildOutcome Run(std::vector<std::string> env = {}, std::vector<std::string> prefix = {},
                          std::vector<std::string> options = {"--output", "json"}) {
    const std::vector<std::string> argv = testing::CommandLine(
        {prefix,
         {MEDIA_CAP_BINARY, "doctor"},
         testing::FakeMachineFlags(Machine()),
         {"--proc-root", (Machine() / "proc").string(), "--query-deadline", "10"},
         options});
    if (record_.empty()) {
      env.insert(env.begin(),
                 {"LD_PRELOAD=" MEDIA_CAP_PRELOAD, "LIBVA_DRIVERS_PATH=" MEDIA_CAP_FAKEVA_DIR,
                  "LIBVA_DRIVER_NAME=fakeva"});
    } else {
      env.insert(env.begin(), {"LD_LIBRARY_PATH=" + (Machine() / "lib").string(),
                               "FAKENV_RECORD=" + record_.string()});
    }
    // A crashing driver must die of its signal, as in the ordinary build, in the sanitizer
    // build too; the cluster is not asked.
    env.insert(env.begin(), {"ASAN_OPTIONS=handle_segv=0", "KUBERNETES_SERVICE_HOST="});
    return testing::RunCommand(argv, env);
  }

  // Lines reads the JSON report's results of check `id`.
  static std::vector<Line> Lines(const probe::ChildOutcome& run, const std::string& id) {
    const json report = json::parse(run.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << run.out << run.err;
    std::vector<Line> lines;
    if (report.is_discarded()) return lines;
    for (const json& check : report["checks"]) {
      if (check["id"] == id) lines.push_back({check["status"], check["finding"], check["remedy"]});
    }
    return lines;
  }

  // The one result of `id`, which must be there alone.
  static Line Only(const probe::ChildOutcome& run, const std::string& id) {
    const std::vector<Line> lines = Lines(run, id);
    EXPECT_EQ(lines.size(), 1u) << id << ": " << run.out;
    return lines.empty() ? Line{} : lines.front();
  }

  static bool Has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  }

  testing::TempDir dir_;
  fs::path record_;
};

TEST_F(Doctor, AHealthyIntelNodePassesEveryNodeCheckAndExitsZero) {
  LayOutIntel({kLowPowerIhd});
  WriteHucInfo("0", "RUNNING");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  for (const char* id :
       {"render-nodes", "render-node-access", "va-driver", "va-driver-version", "huc-firmware"}) {
    EXPECT_EQ(Only(run, id).status, "ok") << id << ": " << run.out;
  }
  EXPECT_TRUE(Has(Only(run, "va-driver").finding, "libva loads fakeva (LIBVA_DRIVER_NAME)"));
  EXPECT_TRUE(Has(Only(run, "va-driver-version").finding, "iHD 24.1.5 on i915"));
  EXPECT_TRUE(Has(Only(run, "huc-firmware").finding, "says RUNNING"));
  EXPECT_TRUE(Lines(run, "nvml").empty()) << "a node without NVIDIA has no NVIDIA checks";
}

TEST_F(Doctor, ARenderNodeThisUserCannotOpenFailsAndNamesTheNodesGroup) {
  LayOutIntel({kLowPowerIhd});
  WriteHucInfo("0", "RUNNING");
  const fs::path node = Machine() / "dev/dri/renderD128";
  ASSERT_EQ(chown(node.c_str(), 0, 44), 0);
  fs::permissions(node, fs::perms::group_read | fs::perms::group_write);
  // Root opens any file, so the doctor runs without the capabilities that let it: the owner's
  // bits deny it, and uid 0 is not in the node's group.
  const probe::ChildOutcome run =
      Run({}, {"setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const Line access = Only(run, "render-node-access");
  EXPECT_EQ(access.status, "fail");
  EXPECT_TRUE(Has(access.finding, "Permission denied")) << access.finding;
  EXPECT_TRUE(Has(access.remedy, "(gid 44)")) << access.remedy;
  // No cluster here: the remedy is the user's and the unit's, and names no pod.
  EXPECT_TRUE(Has(access.remedy, "SupplementaryGroups=render video")) << access.remedy;
  EXPECT_FALSE(Has(access.remedy, "supplementalGroups")) << access.remedy;
}

TEST_F(Doctor, AMissingVaDriverFailsAndNamesThePackagesThatShipOne) {
  LayOutIntel({kLowPowerIhd});
  const probe::ChildOutcome run =
      Run({"LIBVA_DRIVER_NAME=", "LIBVA_DRIVERS_PATH=" + (dir_.path() / "empty").string()});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const Line driver = Only(run, "va-driver");
  EXPECT_EQ(driver.status, "fail");
  EXPECT_TRUE(Has(driver.finding, "no iHD_drv_video.so or i965_drv_video.so in " +
                                      (dir_.path() / "empty").string() + " (LIBVA_DRIVERS_PATH)"))
      << driver.finding;
  EXPECT_TRUE(Has(driver.remedy, "intel-media-va-driver-non-free")) << driver.remedy;
}

TEST_F(Doctor, ALibvaDriverNameThatIsNotThereFailsAndSaysSo) {
  LayOutIntel({kLowPowerIhd});
  const probe::ChildOutcome run = Run({"LIBVA_DRIVER_NAME=nosuch"});
  const Line driver = Only(run, "va-driver");
  EXPECT_EQ(driver.status, "fail");
  EXPECT_TRUE(Has(driver.finding, "no nosuch_drv_video.so")) << driver.finding;
  EXPECT_TRUE(Has(driver.remedy, "LIBVA_DRIVER_NAME names a driver that is not there"));
}

TEST_F(Doctor, AnIhdOlderThanTheXeKernelDriverNeedsFailsTheVersionCheck) {
  LayOutIntel({kLowPowerIhd});
  WriteHucInfo("0", "RUNNING");
  fs::create_directories(Machine() / "sys/bus/pci/drivers/xe");
  fs::remove(dir_.path() / kPciDevice / "driver");
  fs::create_symlink("../../../bus/pci/drivers/xe", dir_.path() / kPciDevice / "driver");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const Line version = Only(run, "va-driver-version");
  EXPECT_EQ(version.status, "fail");
  EXPECT_TRUE(Has(version.finding, "iHD 24.1.5 on xe")) << version.finding;
  EXPECT_TRUE(Has(version.remedy, "24.2.0 or later")) << version.remedy;
}

TEST_F(Doctor, ADriverThatCrashesFailsOnlyItsOwnGpusVersionCheck) {
  LayOutIntel({kDecodeOnlyIhd, kDecodeOnlyIhd});
  const probe::ChildOutcome run = Run({"FAKEVA_MODE_renderD128=crash"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const std::vector<Line> versions = Lines(run, "va-driver-version");
  ASSERT_EQ(versions.size(), 2u) << run.out;
  EXPECT_EQ(versions[0].status, "fail");
  EXPECT_TRUE(Has(versions[0].finding,
                  "renderD128: the VA driver did not answer: the query was "
                  "killed by signal 11"))
      << versions[0].finding;
  EXPECT_EQ(versions[1].status, "ok");
  EXPECT_TRUE(Has(versions[1].finding, "renderD129")) << versions[1].finding;
}

TEST_F(Doctor, AMissingHucFirmwareFailsWhereTheDriverListsLowPowerEncode) {
  LayOutIntel({kLowPowerIhd});
  WriteHucInfo("0", "MISSING");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const Line huc = Only(run, "huc-firmware");
  EXPECT_EQ(huc.status, "fail");
  EXPECT_TRUE(Has(huc.finding, "says MISSING (i915/adlp_huc.bin)")) << huc.finding;
  EXPECT_TRUE(Has(huc.remedy, "install the firmware file i915/adlp_huc.bin")) << huc.remedy;
}

TEST_F(Doctor, AHucStateThatCannotBeReadWarnsAndSaysWhy) {
  LayOutIntel({kLowPowerIhd});
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 0) << "a warning alone fails nothing: " << run.out << run.err;
  const Line huc = Only(run, "huc-firmware");
  EXPECT_EQ(huc.status, "warn");
  EXPECT_TRUE(Has(huc.finding, "I915_PARAM_HUC_STATUS")) << huc.finding;
  EXPECT_TRUE(Has(huc.finding, "kernel/debug/dri/0 is not there")) << huc.finding;
  EXPECT_TRUE(Has(huc.remedy, "mount -t debugfs")) << huc.remedy;
}

TEST_F(Doctor, ADriverWithoutLowPowerEncodeNeedsNoHuc) {
  LayOutIntel({kDecodeOnlyIhd});
  const Line huc = Only(Run(), "huc-firmware");
  EXPECT_EQ(huc.status, "ok");
  EXPECT_TRUE(Has(huc.finding, "lists no low-power encode")) << huc.finding;
}

TEST_F(Doctor, ARenderNodeThatSysfsListsAndDevLacksFails) {
  LayOutIntel({kDecodeOnlyIhd});
  fs::remove(Machine() / "dev/dri/renderD128");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1);
  const Line nodes = Only(run, "render-nodes");
  EXPECT_EQ(nodes.status, "fail");
  EXPECT_TRUE(Has(nodes.finding, "renderD128 is missing, though sysfs lists renderD128"));
}

TEST_F(Doctor, AMachineWithNoGpuAtAllFailsTheRenderNodeCheck) {
  fs::create_directories(Machine() / "sys/class/drm");
  fs::create_directories(Machine() / "dev");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1);
  const Line nodes = Only(run, "render-nodes");
  EXPECT_EQ(nodes.status, "fail");
  EXPECT_TRUE(Has(nodes.finding, "no render node and no NVIDIA GPU")) << nodes.finding;
}

TEST_F(Doctor, TheTextReportSaysWhatToDoUnderAFailure) {
  LayOutIntel({kLowPowerIhd});
  WriteHucInfo("0", "MISSING");
  const probe::ChildOutcome run = Run({}, {}, {});
  EXPECT_EQ(run.code, 1);
  EXPECT_TRUE(Has(run.out, "fail huc-firmware")) << run.out;
  EXPECT_TRUE(Has(run.out, "what to do: install the firmware file")) << run.out;
  EXPECT_TRUE(Has(run.out, "doctor: ")) << run.out;
}

TEST_F(Doctor, AHealthyNvidiaNodePassesEveryNvidiaCheck) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "h200.json");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_TRUE(Has(Only(run, "nvidia-kernel-module").finding, "580.159.04 is loaded"));
  const std::vector<Line> libraries = Lines(run, "nvidia-libraries");
  ASSERT_EQ(libraries.size(), 4u) << run.out;
  for (const Line& library : libraries) {
    EXPECT_EQ(library.status, "ok") << library.finding;
    EXPECT_TRUE(Has(library.finding, "is 580.159.04, as the kernel module")) << library.finding;
  }
  EXPECT_EQ(Only(run, "nvidia-device-nodes").status, "ok");
  EXPECT_EQ(Only(run, "nvml").finding, "NVML answers: driver 580.159.04");
  EXPECT_TRUE(Has(Only(run, "nvidia-query").finding, "NVIDIA H200 answered, CUDA 13.0"));
  // The H200 has no render node: said, not failed. On bare metal nothing needs one, so no
  // Kubernetes remedy is given.
  EXPECT_EQ(Only(run, "render-nodes").status, "ok");
  EXPECT_EQ(run.out.find("media.liken.sh/gpu=none"), std::string::npos) << run.out;
}

// In a cluster the agent's claim asks for a render node: the same machine warns, naming the label.
TEST_F(Doctor, InAClusterAnNvidiaNodeWithoutRenderNodesWarnsNamingTheNodeLabel) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "h200.json");
  const probe::ChildOutcome run =
      Run({"KUBERNETES_SERVICE_HOST=127.0.0.1", "KUBERNETES_SERVICE_PORT=1"});
  const Line nodes = Only(run, "render-nodes");
  EXPECT_EQ(nodes.status, "warn") << run.out;
  EXPECT_TRUE(Has(nodes.remedy, "media.liken.sh/gpu=none")) << nodes.remedy;
}

TEST_F(Doctor, AMissingNvidiaLibraryFails) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "no-libnvidia-encode.json");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  int failed = 0;
  for (const Line& library : Lines(run, "nvidia-libraries")) {
    if (library.status != "fail") continue;
    ++failed;
    EXPECT_TRUE(Has(library.finding, "libnvidia-encode.so.1 cannot be loaded")) << library.finding;
  }
  EXPECT_EQ(failed, 1) << run.out;
}

TEST_F(Doctor, LibrariesOfAnotherVersionThanTheKernelModuleFail) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "h200.json");
  dir_.Write("machine/proc/driver/nvidia/version",
             "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 2024\n");
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  for (const Line& library : Lines(run, "nvidia-libraries")) {
    EXPECT_EQ(library.status, "fail") << library.finding;
    EXPECT_TRUE(Has(library.finding, "is 580.159.04, the kernel module 550.54.14"))
        << library.finding;
  }
  EXPECT_EQ(Only(run, "nvml").status, "fail");
}

TEST_F(Doctor, NoNvidiaKernelModuleFails) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "h200.json");
  fs::remove(Machine() / "proc/driver/nvidia/version");
  const Line module = Only(Run(), "nvidia-kernel-module");
  EXPECT_EQ(module.status, "fail");
  EXPECT_TRUE(Has(module.finding, "is not loaded")) << module.finding;
}

TEST_F(Doctor, NvmlThatCannotInitialiseFails) {
  // NVML_ERROR_DRIVER_NOT_LOADED.
  LayOutNvidia(RecordLike("h200.json", {{"nvmlInit", 9}}));
  const probe::ChildOutcome run = Run();
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const Line nvml = Only(run, "nvml");
  EXPECT_EQ(nvml.status, "fail");
  EXPECT_TRUE(Has(nvml.finding, "nvmlInit_v2 failed")) << nvml.finding;
}

TEST_F(Doctor, AMissingNvidiaControlNodeFails) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "h200.json");
  fs::remove(Machine() / "dev/nvidiactl");
  const Line nodes = Only(Run(), "nvidia-device-nodes");
  EXPECT_EQ(nodes.status, "fail");
  EXPECT_TRUE(Has(nodes.finding, "nvidiactl: No such file or directory")) << nodes.finding;
}

TEST_F(Doctor, ACudaThatFailsToInitialiseFailsTheNvidiaQuery) {
  LayOutNvidia(fs::path(MEDIA_CAP_RECORDS_DIR) / "cuinit-fails.json");
  const Line query = Only(Run(), "nvidia-query");
  EXPECT_EQ(query.status, "fail");
  EXPECT_TRUE(Has(query.finding, "the NVIDIA query failed: ")) << query.finding;
}

}  // namespace
}  // namespace mc::dra
