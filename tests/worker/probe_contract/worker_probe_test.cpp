// `media-capabilities worker probe` end to end on fake machines: the real binary, the real
// NVIDIA loader with the fake NVIDIA libraries replaying a record, and the real libva
// with the fake VA driver stating a recorded vainfo dump. Each expectation is written here
// from what the record or dump states.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/fake_sysfs.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ProbeRun {
  int code = -1;
  json contract;
  std::string err;
};

ProbeRun Parse(const probe::ChildOutcome& run) {
  ProbeRun result;
  result.code = run.kind == probe::ChildOutcome::Kind::kExited ? run.code : -1;
  result.err = run.err;
  result.contract = json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(result.contract.is_discarded()) << run.out << run.err;
  return result;
}

// ProbeRecord lays out the machine of one NVIDIA record and runs `worker probe` on its GPU.
ProbeRun ProbeRecord(const mc::testing::TempDir& dir, const std::string& record,
                     std::vector<std::string> extra = {}) {
  const std::string path = std::string(FAKENV_RECORDS_DIR) + "/" + record;
  const fs::path machine = dir.path() / record;
  const probe::ChildOutcome staged = testing::RunCommand({FAKENV_STAGE, path, machine.string()});
  EXPECT_EQ(staged.code, 0) << staged.err;
  std::string address;
  for (const auto& entry : fs::directory_iterator(machine / "sys/bus/pci/devices")) {
    address = entry.path().filename().string();
  }
  const std::vector<std::string> argv =
      testing::CommandLine({{MEDIA_CAP_BINARY, "worker", "probe", "--gpu", address},
                            testing::FakeMachineFlags(machine),
                            {"--output", "json"},
                            extra});
  return Parse(testing::RunCommand(
      argv, {"LD_LIBRARY_PATH=" + (machine / "lib").string(), "FAKENV_RECORD=" + path}));
}

// ProbeDump lays out a machine with one fake render node stating the dump and runs
// `worker probe` on it (its GPU is pci-0000-01-00-0).
ProbeRun ProbeDump(const mc::testing::TempDir& dir, const fs::path& dump,
                   const std::string& module = "") {
  const fs::path machine = dir.path() / dump.stem();
  const probe::ChildOutcome laid =
      testing::RunCommand({FAKEVA_FAKE_MACHINE, machine.string(), dump.string()});
  EXPECT_EQ(laid.code, 0) << laid.err;
  std::vector<std::string> argv =
      testing::CommandLine({{MEDIA_CAP_BINARY, "worker", "probe", "--gpu", "pci-0000-01-00-0"},
                            testing::FakeMachineFlags(machine),
                            {"--output", "json"}});
  if (!module.empty()) argv.insert(argv.end(), {"--probe-module", module});
  return Parse(testing::RunCommand(
      argv, {"LD_PRELOAD=" FAKEVA_PRELOAD, "LIBVA_DRIVERS_PATH=" FAKEVA_DRIVER_DIR,
             "LIBVA_DRIVER_NAME=fakeva", "FAKEVA_DUMP=" + dump.string()}));
}

// RunOnRecord runs `worker probe` through tests/fakenv/run-on, which lays the record's machine
// out itself; the command names no root, since run-on's environment gives them. The GPU is
// asked by its place in PCI order, since the records' GPUs sit at different addresses.
ProbeRun RunOnRecord(const std::string& record, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {FAKENV_RUN_ON, std::string(FAKENV_RECORDS_DIR) + "/" + record,
                                   "--",          MEDIA_CAP_BINARY,
                                   "worker",      "probe",
                                   "--gpu",       "0",
                                   "--output",    "json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return Parse(testing::RunCommand(argv, {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}));
}

// RunOnDump runs `worker probe` on the dump's GPU through tests/fakeva/run-on.
ProbeRun RunOnDump(const fs::path& dump) {
  return Parse(testing::RunCommand({FAKEVA_RUN_ON, dump.string(), "--", MEDIA_CAP_BINARY, "worker",
                                    "probe", "--gpu", "pci-0000-01-00-0", "--output", "json"},
                                   {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}));
}

json Keys(int h264_enc, int hevc_enc, int av1_enc, int h264_dec, int hevc_dec, int av1_dec,
          int max10bit) {
  return {{"h264_enc", h264_enc}, {"hevc_enc", hevc_enc}, {"av1_enc", av1_enc},
          {"h264_dec", h264_dec}, {"hevc_dec", hevc_dec}, {"av1_dec", av1_dec},
          {"max10bit", max10bit}};
}

std::string Reason(const ProbeRun& run) {
  return run.contract["reason"].is_string() ? run.contract["reason"].get<std::string>()
                                            : std::string("<null>");
}

TEST(WorkerProbeOnRecordedNvidiaGpus, AGeForceRtx4090DoesEverythingWithEightSessions) {
  mc::testing::TempDir dir;
  const ProbeRun run = ProbeRecord(dir, "ada-geforce-rtx4090.json");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.contract["ok"], true) << Reason(run);
  EXPECT_EQ(run.contract["probe_module"], "nvidia-nvenc");
  EXPECT_EQ(run.contract["capabilities"], Keys(1, 1, 1, 1, 1, 1, 1));
  // GeForce boards are capped at 8 sessions from driver 536 on; the record's is 570.
  EXPECT_EQ(run.contract["max_sessions"], 8);
  // NVENC states 4096 for H.264 and 8192 for HEVC and AV1.
  EXPECT_EQ(run.contract["max_width"], 8192);
  EXPECT_EQ(run.contract["max_height"], 8192);
  ASSERT_EQ(run.contract["devices"].size(), 1u);
  EXPECT_EQ(run.contract["devices"][0]["pci_address"], "0000:01:00.0");
  EXPECT_EQ(run.contract["devices"][0]["vendor"], "nvidia");
}

TEST(WorkerProbeOnRecordedNvidiaGpus, ThroughRunOnAGeForceRtx4090DoesEverythingWithEightSessions) {
  const ProbeRun run = RunOnRecord("ada-geforce-rtx4090.json");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.contract["ok"], true) << Reason(run);
  EXPECT_EQ(run.contract["capabilities"], Keys(1, 1, 1, 1, 1, 1, 1));
  EXPECT_EQ(run.contract["max_sessions"], 8);
  EXPECT_EQ(run.contract["max_width"], 8192);
  EXPECT_EQ(run.contract["devices"][0]["pci_address"], "0000:01:00.0");
}

TEST(WorkerProbeOnRecordedNvidiaGpus, ThroughRunOnEveryRecordSaysWhatItStates) {
  // What each record states, written out from the records: the RTX A4000 encodes no AV1 and
  // has no driver cap; the H200 has no encoder; one record lacks libnvidia-encode; the rest
  // fail in cuInit.
  struct Expected {
    const char* record;
    bool ok;
    json keys;
    const char* reason;
  };
  const Expected expected[] = {
      {"ada-geforce-rtx4090.json", true, Keys(1, 1, 1, 1, 1, 1, 1), ""},
      {"ampere-rtx-a4000.json", true, Keys(1, 1, 0, 1, 1, 1, 1), ""},
      {"h200.json", false, Keys(0, 0, 0, 1, 1, 0, 0), "NV_ENC_ERR_UNSUPPORTED_DEVICE (2)"},
      {"no-libnvidia-encode.json", false, nullptr, "libnvidia-encode.so.1"},
      {"cuinit-fails.json", false, Keys(0, 0, 0, 0, 0, 0, 0), "query of pci-0000-01-00-0 failed"},
      {"cuinit-crashes.json", false, Keys(0, 0, 0, 0, 0, 0, 0), "query of pci-0000-01-00-0 failed"},
      {"cuinit-hangs.json", false, Keys(0, 0, 0, 0, 0, 0, 0), "query of pci-0000-01-00-0 failed"},
  };
  std::size_t records = 0;
  for (const auto& entry : fs::directory_iterator(FAKENV_RECORDS_DIR))
    records += entry.path().extension() == ".json";
  ASSERT_EQ(records, std::size(expected))
      << "a record was added or removed; say here what it states";
  for (const Expected& record : expected) {
    SCOPED_TRACE(record.record);
    const ProbeRun run = RunOnRecord(record.record, {"--query-deadline", "2"});
    EXPECT_EQ(run.code, record.ok ? 0 : 1) << run.err;
    EXPECT_EQ(run.contract["ok"], record.ok) << Reason(run);
    if (!record.keys.is_null()) {
      EXPECT_EQ(run.contract["capabilities"], record.keys);
    }
    if (!record.ok) {
      EXPECT_NE(Reason(run).find(record.reason), std::string::npos) << Reason(run);
    }
  }
}

TEST(WorkerProbeOnRecordedNvidiaGpus, AnRtxA4000EncodesNoAv1AndHasNoDriverCap) {
  mc::testing::TempDir dir;
  const ProbeRun run =
      ProbeRecord(dir, "ampere-rtx-a4000.json", {"--probe-module", "nvidia-nvenc"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.contract["ok"], true) << Reason(run);
  EXPECT_EQ(run.contract["capabilities"], Keys(1, 1, 0, 1, 1, 1, 1));
  EXPECT_TRUE(run.contract["max_sessions"].is_null());
  EXPECT_EQ(run.contract["max_width"], 8192);
}

TEST(WorkerProbeOnRecordedNvidiaGpus, AnH200WhichHasNoEncoderFailsClosedWithNvencsOwnStatus) {
  mc::testing::TempDir dir;
  const ProbeRun run = ProbeRecord(dir, "h200.json");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.contract["ok"], false);
  EXPECT_NE(Reason(run).find("NV_ENC_ERR_UNSUPPORTED_DEVICE (2)"), std::string::npos)
      << Reason(run);
  // The status's name alone does not tell an admin that the board has no encoder at all.
  EXPECT_NE(Reason(run).find("this board has no NVENC"), std::string::npos) << Reason(run);
  EXPECT_EQ(run.contract["capabilities"], Keys(0, 0, 0, 1, 1, 0, 0));
}

TEST(WorkerProbeOnRecordedNvidiaGpus, AMissingEncodeLibraryFailsClosedNamingTheLibrary) {
  mc::testing::TempDir dir;
  const ProbeRun run = ProbeRecord(dir, "no-libnvidia-encode.json");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.contract["ok"], false);
  EXPECT_NE(Reason(run).find("libnvidia-encode.so.1"), std::string::npos) << Reason(run);
  EXPECT_NE(Reason(run).find("apt install libnvidia-encode1"), std::string::npos) << Reason(run);
}

TEST(WorkerProbeOnRecordedNvidiaGpus, ADriverThatFailsHangsOrCrashesFailsClosed) {
  mc::testing::TempDir dir;
  for (const char* record : {"cuinit-fails.json", "cuinit-crashes.json", "cuinit-hangs.json"}) {
    SCOPED_TRACE(record);
    const ProbeRun run = ProbeRecord(dir, record, {"--query-deadline", "2"});
    EXPECT_EQ(run.code, 1);
    EXPECT_EQ(run.contract["ok"], false);
    EXPECT_NE(Reason(run).find("query of pci-0000-01-00-0 failed"), std::string::npos)
        << Reason(run);
    EXPECT_EQ(run.contract["capabilities"], Keys(0, 0, 0, 0, 0, 0, 0));
  }
}

std::vector<fs::path> Dumps() {
  std::vector<fs::path> dumps;
  for (const auto& entry : fs::directory_iterator(FAKEVA_DUMPS_DIR)) {
    if (entry.path().extension() == ".txt") dumps.push_back(entry.path());
  }
  std::sort(dumps.begin(), dumps.end());
  return dumps;
}

bool AnyOf(const json& expected, std::initializer_list<const char*> attributes) {
  for (const char* attribute : attributes) {
    if (expected.contains(attribute) && expected[attribute].is_boolean() &&
        expected[attribute].get<bool>()) {
      return true;
    }
  }
  return false;
}

// Every recorded dump gives the keys that its hand-written expectation's attributes give
// under the mapping docs/worker/status.md documents, written out again here.
TEST(WorkerProbeOnRecordedVaDumps, EachDumpGivesTheKeysOfItsExpectedAttributes) {
  mc::testing::TempDir dir;
  const std::vector<fs::path> dumps = Dumps();
  ASSERT_GE(dumps.size(), 8u);
  for (const fs::path& dump : dumps) {
    SCOPED_TRACE(dump.filename().string());
    fs::path expected_file = dump;
    expected_file.replace_extension(".expected.json");
    const json expected = json::parse(testing::ReadFile(expected_file));
    const json keys =
        Keys(AnyOf(expected, {"encodeH264", "encodeH264LowPower"}),
             AnyOf(expected, {"encodeHEVCMain", "encodeHEVCMainLowPower"}),
             AnyOf(expected, {"encodeAV1Main"}), AnyOf(expected, {"decodeH264"}),
             AnyOf(expected, {"decodeHEVCMain"}), AnyOf(expected, {"decodeAV1Main"}),
             AnyOf(expected, {"encodeHEVCMain10", "encodeHEVCMain10LowPower", "encodeAV1Main10"}));
    const bool encodes = keys["h264_enc"] == 1 || keys["hevc_enc"] == 1 || keys["av1_enc"] == 1;
    const bool answered = !expected["vaDriver"].is_null();

    // Once on a machine laid out here, once through tests/fakeva/run-on.
    for (const ProbeRun& run : {ProbeDump(dir, dump), RunOnDump(dump)}) {
      EXPECT_EQ(run.contract["capabilities"], keys);
      EXPECT_EQ(run.contract["ok"], encodes && answered) << Reason(run);
      EXPECT_EQ(run.code, encodes && answered ? 0 : 1);
      EXPECT_EQ(run.contract["probe_module"], "vaapi");
      // VA-API states no session cap, and the dumps state no largest picture size.
      EXPECT_TRUE(run.contract["max_sessions"].is_null());
      EXPECT_TRUE(run.contract["max_width"].is_null());
      if (!answered) {
        EXPECT_NE(Reason(run).find("query of pci-0000-01-00-0 failed"), std::string::npos)
            << Reason(run);
      } else if (!encodes) {
        EXPECT_NE(Reason(run).find("encodes nothing"), std::string::npos) << Reason(run);
      }
    }
  }
}

TEST(WorkerProbeOnRecordedVaDumps, IntelQsvIsAcceptedOnIntelAndRefusedOnAmd) {
  mc::testing::TempDir dir;
  const ProbeRun intel =
      ProbeDump(dir, fs::path(FAKEVA_DUMPS_DIR) / "intel-ihd-dg1-gen12-24.1.txt", "intel-qsv");
  EXPECT_EQ(intel.contract["ok"], true) << Reason(intel);
  EXPECT_EQ(intel.contract["probe_module"], "intel-qsv");
  EXPECT_EQ(intel.contract["devices"][0]["vendor"], "intel");
  const ProbeRun amd =
      ProbeDump(dir, fs::path(FAKEVA_DUMPS_DIR) / "amd-radeonsi-rdna3-rx7900xtx.txt", "intel-qsv");
  EXPECT_EQ(amd.contract["ok"], false);
  EXPECT_NE(Reason(amd).find("PCI vendor 8086"), std::string::npos) << Reason(amd);
}

TEST(WorkerProbeWithoutAGpu, AMachineWithNoGpuFailsClosedWithAReason) {
  mc::testing::TempDir dir;
  dir.Write("sys/class/drm/.keep", "");
  dir.Write("dev/.keep", "");
  const ProbeRun run = Parse(testing::RunCommand(
      testing::CommandLine({{MEDIA_CAP_BINARY, "worker", "probe", "--gpu", "pci-0000-00-02-0"},
                            testing::FakeMachineFlags(dir.path()),
                            {"--output", "json"}})));
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.contract["ok"], false);
  EXPECT_NE(Reason(run).find("no GPU \"pci-0000-00-02-0\""), std::string::npos) << Reason(run);
  EXPECT_EQ(run.contract["capabilities"], Keys(0, 0, 0, 0, 0, 0, 0));
}

TEST(WorkerProbeWithoutAGpu, ThisMachineWithoutAGpuFailsClosedWithAReason) {
  std::error_code error;
  if (fs::exists("/sys/class/drm", error) && !fs::is_empty("/sys/class/drm", error)) {
    GTEST_SKIP() << "this machine has a DRM device";
  }
  const ProbeRun run = Parse(testing::RunCommand(
      {MEDIA_CAP_BINARY, "worker", "probe", "--gpu", "pci-0000-00-02-0", "--output", "json"}));
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.contract["ok"], false);
  EXPECT_FALSE(Reason(run).empty());
}

}  // namespace
}  // namespace mc
