// `media-capabilities worker self-test` end to end with Debian's real ffmpeg on the fake
// NVIDIA GPU of tests/fakenv (which really encodes and decodes), on its recorded H200 (no
// encoder), under the fake's faults, and on no GPU; and the pure parts it is made of.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "status_checks.h"
#include "support/fake_sysfs.h"
#include "worker/probe_contract/landlock.h"
#include "worker/self_test/self_test_commands.h"
#include "worker/self_test/self_test_ffmpeg_log.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string Line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) line += (line.empty() ? "" : " ") + arg;
  return line;
}

TEST(FfmpegErrorLine, IsNvencsOwnStatusWithoutTheContextPrefix) {
  const std::string log =
      "[h264_nvenc @ 0x559610188d00] Loaded Nvenc version 13.0\n"
      "[h264_nvenc @ 0x559610188d00] Nvenc initialized successfully\n"
      "[h264_nvenc @ 0x559610188d00] OpenEncodeSessionEx failed: unsupported device (2): (no "
      "details)\n"
      "[h264_nvenc @ 0x559610188d00] No capable devices found\n"
      "Conversion failed!\n";
  EXPECT_EQ(worker::FfmpegErrorLine(log),
            "OpenEncodeSessionEx failed: unsupported device (2): (no details)");
}

TEST(FfmpegErrorLine, IsTheLastLineThatIsNotProgressWhenNothingSaysFailed) {
  EXPECT_EQ(worker::FfmpegErrorLine("frame=  10 fps=0\rframe=  20 fps=0\nsomething went wrong\n"),
            "something went wrong");
  EXPECT_EQ(worker::FfmpegErrorLine(""), "");
}

TEST(ListedCodecs, ReadsTheNamesBelowTheSeparator) {
  const std::string list =
      "Encoders:\n V..... = Video\n ------\n V....D h264_nvenc           NVIDIA NVENC H.264 "
      "encoder\n"
      " V..... wrapped_avframe      AVFrame to AVPacket passthrough\n";
  EXPECT_EQ(worker::ListedCodecs(list), (std::set<std::string>{"h264_nvenc", "wrapped_avframe"}));
}

TEST(SelfTestCommands, AnNvidiaEncodeNamesTheGpuByItsCudaOrdinalWithoutBFrames) {
  const worker::SelfTestTarget target{.api = "nvidia", .cuda_index = 2, .render_node = ""};
  const std::vector<std::string> argv =
      worker::EncodeArgv("ffmpeg", target, worker::kEncodeCodecs[1], "1280x720", 1, "");
  const std::string line = Line(argv);
  EXPECT_NE(line.find("-c:v hevc_nvenc -gpu 2 -bf 0"), std::string::npos) << line;
  EXPECT_NE(line.find("-f null -"), std::string::npos) << line;
}

TEST(SelfTestCommands, AVaapiEncodeOpensTheRenderNodeAndUploadsToIt) {
  const worker::SelfTestTarget target{
      .api = "vaapi", .cuda_index = 0, .render_node = "/dev/dri/renderD129"};
  const std::string line =
      Line(worker::EncodeArgv("ffmpeg", target, worker::kEncodeCodecs[0], "1280x720", 1, ""));
  EXPECT_NE(line.find("-vaapi_device /dev/dri/renderD129"), std::string::npos) << line;
  EXPECT_NE(line.find("-vf format=nv12,hwupload -c:v h264_vaapi"), std::string::npos) << line;
}

TEST(SelfTestCommands, TheNvidiaPipelineKeepsItsFramesOnTheGpuFromCuvidThroughScaleCudaToNvenc) {
  const worker::SelfTestTarget target{.api = "nvidia", .cuda_index = 0, .render_node = ""};
  const std::string line = Line(worker::PipelineArgv("ffmpeg", target, "in.mp4"));
  EXPECT_NE(
      line.find(
          "-hwaccel cuda -hwaccel_device 0 -hwaccel_output_format cuda -c:v h264_cuvid -i in.mp4 "
          "-vf scale_cuda=1280:720 -c:v h264_nvenc"),
      std::string::npos)
      << line;
}

TEST(SelfTestCommands, AnNvidiaDecodePassUsesTheCuvidDecoderWhichCannotFallBackToTheCpu) {
  const worker::SelfTestTarget target{.api = "nvidia", .cuda_index = 0, .render_node = ""};
  const std::string line =
      Line(worker::DecodeArgv("ffmpeg", target, worker::kDecodeFamilies[3], "vp9.webm", 5));
  EXPECT_NE(line.find("-c:v vp9_cuvid -gpu 0 -stream_loop 4 -i vp9.webm -f null -"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("-hwaccel"), std::string::npos) << line;
}

TEST(SelfTestCommands, AVaapiDecodePassLoopsItsStreamWithThePicturesBackInMemory) {
  const worker::SelfTestTarget target{
      .api = "vaapi", .cuda_index = 0, .render_node = "/dev/dri/renderD128"};
  const std::string line =
      Line(worker::DecodeArgv("ffmpeg", target, worker::kDecodeFamilies[0], "h264.mp4", 10));
  EXPECT_NE(line.find("-hwaccel vaapi -hwaccel_device /dev/dri/renderD128 -stream_loop 9 -i "
                      "h264.mp4 -f null -"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("-hwaccel_output_format"), std::string::npos) << line;
}

// A fake machine, staged from a record, on which the self-test and the status run.
class SelfTestOnFakeGpu : public ::testing::Test {
 protected:
  void Stage(const std::string& record_name) {
    record_ = std::string(FAKENV_RECORDS_DIR) + "/" + record_name;
    machine_ = dir_.path() / "machine";
    ASSERT_EQ(testing::RunCommand({FAKENV_STAGE, record_, machine_.string()}).code, 0);
    const json record = json::parse(std::ifstream(record_), nullptr, false);
    gpu_ = record["identity"]["pciAddress"].get<std::string>();
  }

  std::vector<std::string> Environment(const std::string& fault = "") const {
    // The self-test's ffmpeg runs boxed: the fake's machine, its engine and its record are
    // the admin's folders, as tests/fakenv/run-on makes them.
    return {"LD_LIBRARY_PATH=" + (machine_ / "lib").string(), "FAKENV_RECORD=" + record_,
            "FAKENV_STATE_DIR=" + (machine_ / "state").string(), "FAKENV_FAULT=" + fault,
            "PT_WORKER_SANDBOX_PATHS=" + machine_.string() + ":" + MEDIA_CAP_BUILD_DIR +
                "/tests/fakenv:" + FAKENV_RECORDS_DIR};
  }

  std::vector<std::string> MachineFlags() const {
    return testing::CommandLine({{"--gpu", gpu_},
                                 testing::FakeNvidiaMachineFlags(machine_),
                                 {"--state-dir", (dir_.path() / "state").string(), "--work-dir",
                                  (dir_.path() / "work").string()}});
  }

  // SelfTest runs `worker self-test -o json` and gives its report.
  json SelfTest(const std::string& fault = "", std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {MEDIA_CAP_BINARY, "worker", "self-test",       "-o", "json",
                                     "--ffmpeg",       "ffmpeg", "--step-deadline", "120"};
    const std::vector<std::string> flags = MachineFlags();
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    outcome_ = testing::RunCommand(argv, Environment(fault), std::chrono::seconds(600));
    const json report = json::parse(outcome_.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << outcome_.out << outcome_.err;
    return report;
  }

  // Status runs `worker status -o json` against the same machine and state directory.
  json Status() {
    std::vector<std::string> argv = {MEDIA_CAP_BINARY,
                                     "worker",
                                     "status",
                                     "--output",
                                     "json",
                                     "--kernel-log",
                                     dir_.Write("empty-kmsg", "").string()};
    const std::vector<std::string> flags = MachineFlags();
    argv.insert(argv.end(), flags.begin(), flags.end());
    status_ = testing::RunCommand(argv, Environment());
    const json document = json::parse(status_.out, nullptr, false);
    EXPECT_FALSE(document.is_discarded()) << status_.out << status_.err;
    const probe::ChildOutcome validated =
        worker::testing::ValidateAgainstSchema(dir_, {status_.out});
    EXPECT_EQ(validated.code, 0) << validated.out << validated.err;
    return document;
  }

  static const json& StepOf(const json& report, const std::string& name) {
    for (const json& step : report["steps"]) {
      if (step["name"] == name) return step;
    }
    static const json none;
    return none;
  }

  mc::testing::TempDir dir_;
  std::string record_;
  fs::path machine_;
  std::string gpu_;
  probe::ChildOutcome outcome_;
  probe::ChildOutcome status_;
};

TEST_F(SelfTestOnFakeGpu, OnTheAdaRecordEveryStepPassesWithEvidenceAndMeasuresTheCapAndTheVram) {
  Stage("ada-geforce-rtx4090.json");
  const json report = SelfTest();
  EXPECT_EQ(outcome_.code, 0) << report.dump(2) << outcome_.err;
  EXPECT_EQ(report["ok"], true) << report.dump(2);
  ASSERT_EQ(report["steps"].size(), 5u) << report.dump(2);
  for (const json& step : report["steps"]) EXPECT_EQ(step["ok"], true) << step.dump(2);
  EXPECT_NE(StepOf(report, "encode")["evidence"].get<std::string>().find("h264_nvenc"),
            std::string::npos);
  EXPECT_NE(StepOf(report, "encode")["evidence"].get<std::string>().find("hevc_nvenc"),
            std::string::npos);
  // Debian 12's ffmpeg has no av1_nvenc: the claimed AV1 encoder is downgraded, not failed.
  EXPECT_EQ(report["downgraded"], json::array({"av1_enc"})) << report.dump(2);
  const std::string decoded = StepOf(report, "decode_matrix")["evidence"].get<std::string>();
  EXPECT_NE(decoded.find("h264: "), std::string::npos) << decoded;
  EXPECT_NE(decoded.find("hevc: "), std::string::npos) << decoded;
  EXPECT_NE(decoded.find("decUtil up to"), std::string::npos) << decoded;
  EXPECT_EQ(report["sessions_cap"], 8) << report.dump(2);
  EXPECT_GT(report["pipeline_vram_mb"].get<double>(), 0) << report.dump(2);
  // The box's libx264 baseline, measured once by the self-test with Debian's real ffmpeg.
  ASSERT_TRUE(report["cpu_baseline"].is_object()) << report.dump(2);
  EXPECT_GT(report["cpu_baseline"]["cpu_seconds_per_media_second"].get<double>(), 0);
  EXPECT_EQ(report["cpu_baseline"]["pixels_per_frame"].get<double>(), 1920.0 * 1080.0);

  const json status = Status();
  EXPECT_EQ(status["gpu"]["self_test"]["ok"], true);
  EXPECT_EQ(status["gpu"]["sessions"]["cap"], 8);
  EXPECT_EQ(status["gpu"]["sessions"]["cap_source"], "probe");
  EXPECT_GE(status["gpu"]["self_test"]["age_seconds"].get<double>(), 0);
  EXPECT_EQ(status["gpu"]["self_test"]["pipeline_vram_mb"], report["pipeline_vram_mb"]);
  EXPECT_NE(status["state"], "GPU_UNAVAILABLE") << status["state_reason"];
}

TEST_F(SelfTestOnFakeGpu,
       OnTheH200RecordItFailsClosedAtTheEncodeStepWithNvencsOwnStatusAndStillDecodes) {
  Stage("h200.json");
  const json report = SelfTest();
  EXPECT_EQ(outcome_.code, 1) << outcome_.err;
  EXPECT_EQ(report["ok"], false);
  EXPECT_EQ(StepOf(report, "gate")["ok"], true) << report.dump(2);
  const json& encode = StepOf(report, "encode");
  EXPECT_EQ(encode["ok"], false);
  EXPECT_NE(encode["detail"].get<std::string>().find(
                "OpenEncodeSessionEx failed: unsupported device (2)"),
            std::string::npos)
      << encode.dump(2);
  EXPECT_NE(report["detail"].get<std::string>().find(
                "step encode: h264_nvenc: OpenEncodeSessionEx failed"),
            std::string::npos)
      << report["detail"];
  // NVENC's words say what failed; the next words say what it means and what to do.
  EXPECT_NE(encode["detail"].get<std::string>().find("this board has no NVENC"), std::string::npos)
      << encode.dump(2);
  EXPECT_NE(encode["detail"].get<std::string>().find("run the worker on a GPU with NVENC"),
            std::string::npos)
      << encode.dump(2);
  EXPECT_EQ(StepOf(report, "pipeline")["detail"], "not run: the encode step failed");
  const json& decode = StepOf(report, "decode_matrix");
  EXPECT_EQ(decode["ok"], true) << decode.dump(2);
  EXPECT_NE(decode["evidence"].get<std::string>().find("h264: "), std::string::npos)
      << decode.dump(2);

  const json status = Status();
  EXPECT_EQ(status["state"], "GPU_UNAVAILABLE");
  EXPECT_EQ(status["gpu"]["self_test"]["ok"], false);
}

// Without the driver's NVENC library no encode can run: the gate fails naming the package, and
// no step after it runs (it once passed, and the encode failed in ffmpeg's generic words).
TEST_F(SelfTestOnFakeGpu, WithoutTheNvencLibraryTheGateFailsNamingThePackageToInstall) {
  Stage("no-libnvidia-encode.json");
  const json report = SelfTest();
  EXPECT_EQ(outcome_.code, 1) << outcome_.err;
  const json& gate = StepOf(report, "gate");
  EXPECT_EQ(gate["ok"], false) << report.dump(2);
  const std::string detail = gate["detail"].get<std::string>();
  EXPECT_NE(detail.find("libnvidia-encode.so.1 is missing"), std::string::npos) << detail;
  EXPECT_NE(detail.find("apt install libnvidia-encode1"), std::string::npos) << detail;
  EXPECT_EQ(StepOf(report, "encode")["detail"], "not run: the gate failed");
}

// A report that could not be kept is never said to be kept, and the words say where to keep it.
TEST_F(SelfTestOnFakeGpu, AReportThatCannotBeKeptIsNotSaidToBeKept) {
  Stage("no-libnvidia-encode.json");
  const std::string blocked = dir_.Write("a-file", "").string() + "/state";
  std::vector<std::string> argv = {MEDIA_CAP_BINARY, "worker", "self-test", "--step-deadline",
                                   "120"};
  std::vector<std::string> flags = MachineFlags();
  const auto state_dir = std::find(flags.begin(), flags.end(), "--state-dir");
  ASSERT_NE(state_dir, flags.end());
  *std::next(state_dir) = blocked;
  argv.insert(argv.end(), flags.begin(), flags.end());
  const probe::ChildOutcome run =
      testing::RunCommand(argv, Environment(), std::chrono::seconds(600));
  EXPECT_NE(run.err.find("the report was not kept"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("pass --state-dir with a folder you may write"), std::string::npos)
      << run.err;
  EXPECT_EQ(run.out.find("report kept in"), std::string::npos) << run.out;
}

// The self-test's ffmpeg reads streams as a job's does, so it runs in the same box: a fake
// ffmpeg writes in the admin's folders (the fake's machine) and nowhere else.
TEST_F(SelfTestOnFakeGpu, ItsFfmpegRunsInTheBoxAsAJobsDoes) {
  if (worker::LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  Stage("ada-geforce-rtx4090.json");
  const fs::path ran = machine_ / "ran";
  const fs::path escaped = dir_.path() / "escaped";
  const fs::path ffmpeg =
      dir_.Write("bin/ffmpeg", "#!/bin/sh\necho ran > '" + ran.string() + "'\necho escaped > '" +
                                   escaped.string() + "'\nexit 1\n");
  fs::permissions(ffmpeg, fs::perms::owner_all);
  std::vector<std::string> argv = {
      MEDIA_CAP_BINARY, "worker",        "self-test",       "-o", "json",
      "--ffmpeg",       ffmpeg.string(), "--step-deadline", "60"};
  const std::vector<std::string> flags = MachineFlags();
  argv.insert(argv.end(), flags.begin(), flags.end());
  outcome_ = testing::RunCommand(argv, Environment(), std::chrono::seconds(120));
  EXPECT_NE(outcome_.code, 0) << outcome_.out << outcome_.err;
  EXPECT_TRUE(fs::exists(ran)) << outcome_.out << outcome_.err;
  EXPECT_FALSE(fs::exists(escaped));
}

TEST_F(SelfTestOnFakeGpu, AnEncodeTheGpuFailsMidwayFailsTheEncodeStepWithTheDriversWords) {
  Stage("ada-geforce-rtx4090.json");
  const json report = SelfTest("encode-fails-after:5");
  EXPECT_EQ(report["ok"], false);
  const json& encode = StepOf(report, "encode");
  EXPECT_EQ(encode["ok"], false);
  EXPECT_NE(encode["detail"].get<std::string>().find("EncodePicture failed"), std::string::npos)
      << encode.dump(2);
  EXPECT_EQ(Status()["state"], "GPU_UNAVAILABLE");
}

TEST_F(SelfTestOnFakeGpu, AnEngineThatDiesFailsTheEncodeStepWithTheDeviceGone) {
  Stage("ada-geforce-rtx4090.json");
  const json report = SelfTest("engine-dies-after:5");
  const json& encode = StepOf(report, "encode");
  EXPECT_EQ(encode["ok"], false);
  EXPECT_NE(encode["detail"].get<std::string>().find("device does not exist (5)"),
            std::string::npos)
      << encode.dump(2);
}

TEST_F(SelfTestOnFakeGpu, WorkThatNvmlDoesNotAttributeIsNoEvidenceAndFailsTheEncodeStep) {
  Stage("ada-geforce-rtx4090.json");
  const json report = SelfTest("unattributed");
  const json& encode = StepOf(report, "encode");
  EXPECT_EQ(encode["ok"], false);
  EXPECT_NE(encode["detail"].get<std::string>().find("no hardware evidence"), std::string::npos)
      << encode.dump(2);
  // The decode matrix runs on its own and is judged the same way.
  EXPECT_EQ(StepOf(report, "decode_matrix")["ok"], false) << report.dump(2);
}

TEST(SelfTestOnThisMachine, WithNoGpuItFailsClosedAtTheGateWithTheReason) {
  mc::testing::TempDir dir;
  dir.Write("sys/class/drm/.keep", "");
  const probe::ChildOutcome run = testing::RunCommand(testing::CommandLine(
      {{MEDIA_CAP_BINARY, "worker", "self-test", "-o", "json", "--gpu", "pci-0000-00-02-0"},
       testing::FakeMachineFlags(dir.path()),
       {"--state-dir", (dir.path() / "state").string()}}));
  EXPECT_EQ(run.code, 1) << run.err;
  const json report = json::parse(run.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.out << run.err;
  EXPECT_EQ(report["ok"], false);
  EXPECT_EQ(report["steps"][0]["name"], "gate");
  EXPECT_EQ(report["steps"][0]["ok"], false);
  EXPECT_NE(report["steps"][0]["detail"].get<std::string>().find("no GPU \"pci-0000-00-02-0\""),
            std::string::npos)
      << report.dump(2);
  ASSERT_EQ(report["steps"].size(), 5u) << report.dump(2);
  EXPECT_EQ(report["steps"][4]["detail"], "not run: the gate failed");
}

}  // namespace
}  // namespace mc
