// The proof that the planned argv is right: Debian's real ffmpeg runs it on the fake
// NVIDIA GPU (tests/fakenv), which really decodes and encodes, and Debian's ffprobe reads
// what it wrote.
//
// What the fake cannot run, so that these tests leave it out: a 10-bit decode (its
// engine decodes 8-bit 4:2:0 alone: cuvidParseVideoData answers CUDA_ERROR_NOT_SUPPORTED)
// and scale_cuda's format conversion (P010 to NV12). The 10-bit inputs therefore run the plan
// for the Ada record with its 10-bit decode attributes stated false: the CPU decode, the
// upload and the GPU's scale and encode. The plan for the Ada record as it is (hevc_cuvid,
// scale_cuda=...:format=nv12 on P010 frames) is checked by the table test only.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "plan_checks.h"
#include "runner_forms.h"
#include "support/run_command.h"
#include "support/temp_dir.h"
#include "test_media.h"
#include "worker/transcode/plan.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;
using testing::FixtureDeviceNamed;
using testing::HoldsPair;
using testing::RunnerForm;
using testing::ScratchDir;
using testing::TestInputNamed;

const std::string kAdaRecord = std::string(FAKENV_RECORDS_DIR) + "/ada-geforce-rtx4090.json";

// FirstRecorded gives the first recorded line whose argv holds `word` (the HLS or the web
// video form).
RunnerCommand FirstRecorded(const std::string& word, const std::string& height) {
  for (const RunnerForm& form : testing::RecordedForms(TRANSCODE_RECORDED_DIR)) {
    if (!testing::Holds(form.args, word) || !testing::Holds(form.args, "scale=w=-2:h=" + height)) {
      continue;
    }
    Result<RunnerCommand> command = ParseRunnerCommand(form.args);
    if (command) return *command;
  }
  ADD_FAILURE() << "no recorded form with " << word << " at " << height;
  return {};
}

// Relocate points the runner's files at this test's: the input at a real file, the outputs
// (and the HLS segment file) into the scratch directory.
RunnerCommand Relocate(RunnerCommand command, const std::vector<fs::path>& inputs,
                       const std::string& name) {
  for (std::size_t i = 0; i < command.inputs.size() && i < inputs.size(); ++i) {
    command.inputs[i].path = inputs[i].string();
  }
  for (CommandOutput& output : command.outputs) {
    const std::string extension = fs::path(output.path).extension().string();
    output.path = (ScratchDir() / (name + extension)).string();
    for (CommandOption& option : output.options) {
      if (option.name == "-hls_segment_filename") {
        option.value = (ScratchDir() / (name + "-fragmented.mp4")).string();
      }
    }
  }
  return command;
}

probe::ChildOutcome RunOnFakeGpu(const Plan& plan) {
  std::vector<std::string> argv = {FAKENV_RUN_ON,  kAdaRecord, "--", "ffmpeg",
                                   "-hide_banner", "-nostdin", "-v", "error"};
  argv.insert(argv.end(), plan.argv.begin(), plan.argv.end());
  std::vector<std::string> env = plan.environment;
  env.push_back(std::string("MEDIA_CAP_BUILD=") + MEDIA_CAP_BUILD_DIR);
  return mc::testing::RunCommand(argv, env, std::chrono::seconds(120));
}

nlohmann::json Probe(const fs::path& file) {
  const nlohmann::json json = nlohmann::json::parse(testing::Ffprobe(file), nullptr, false);
  return json.is_discarded() ? nlohmann::json::object() : json;
}

const nlohmann::json* VideoStream(const nlohmann::json& probe) {
  if (!probe.contains("streams")) return nullptr;
  for (const nlohmann::json& stream : probe["streams"]) {
    if (stream.value("codec_type", "") == "video") return &stream;
  }
  return nullptr;
}

// PlanAndRun plans `command` for `device` with the facts of `input`, runs it on the fake
// and checks that the output is H.264 of `height`.
void PlanAndRun(const RunnerCommand& command, const PlanDevice& device, const std::string& input,
                const fs::path& output, int height, bool expect_gpu_decode) {
  const Plan plan = PlanCommand(command, device, TestInputNamed(input).facts, PlanOptions{});
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_EQ(plan.hardware_decode, expect_gpu_decode);
  const probe::ChildOutcome ran = RunOnFakeGpu(plan);
  ASSERT_EQ(ran.kind, probe::ChildOutcome::Kind::kExited);
  ASSERT_EQ(ran.code, 0) << ran.err;
  const nlohmann::json probe = Probe(output);
  const nlohmann::json* video = VideoStream(probe);
  ASSERT_NE(video, nullptr) << output;
  EXPECT_EQ(video->value("codec_name", ""), "h264");
  EXPECT_EQ(video->value("height", 0), height);
  EXPECT_EQ(video->value("pix_fmt", ""), "yuv420p");
}

TEST(FakeGpuRun, EncodesTheRecordedWebVideoFormOnTheGpu) {
  const RunnerCommand command =
      Relocate(FirstRecorded("mp4", "480"), {TestInputNamed("h264").file}, "web-480");
  if (HasFailure()) return;
  PlanAndRun(command, FixtureDeviceNamed("ada-geforce-rtx4090"), "h264",
             ScratchDir() / "web-480.mp4", 480, true);
  // The runner's cap holds: the encoder got PeerTube's target as its VBR target and cap.
  const nlohmann::json probe = Probe(ScratchDir() / "web-480.mp4");
  const nlohmann::json* video = VideoStream(probe);
  ASSERT_NE(video, nullptr);
  const double bit_rate = std::stod(video->value("bit_rate", "0"));
  const CommandOption* maxrate = command.outputs[0].Last({"-maxrate:v"});
  ASSERT_NE(maxrate, nullptr);
  EXPECT_GT(bit_rate, 0);
  EXPECT_LT(bit_rate, 1.25 * std::stod(*maxrate->value));
}

TEST(FakeGpuRun, WritesTheRecordedHlsFormsPlaylistAndFragmentedMp4) {
  const RunnerCommand command =
      Relocate(FirstRecorded("hls", "720"), {TestInputNamed("h264").file}, "hls-720");
  if (HasFailure()) return;
  PlanAndRun(command, FixtureDeviceNamed("ada-geforce-rtx4090"), "h264",
             ScratchDir() / "hls-720-fragmented.mp4", 720, true);
  const fs::path playlist = ScratchDir() / "hls-720.m3u8";
  ASSERT_TRUE(fs::exists(playlist));
  const std::string text = mc::testing::ReadFile(playlist);
  EXPECT_NE(text.find("#EXT-X-MAP:URI=\"hls-720-fragmented.mp4\""), std::string::npos) << text;
  EXPECT_NE(text.find("#EXT-X-PLAYLIST-TYPE:VOD"), std::string::npos) << text;
  EXPECT_NE(Probe(ScratchDir() / "hls-720-fragmented.mp4")["format"].value("format_name", ""), "");
}

TEST(FakeGpuRun, DecodesVp9OnTheGpuAndEncodesIt) {
  const RunnerCommand command =
      Relocate(FirstRecorded("mp4", "240"), {TestInputNamed("vp9").file}, "vp9-240");
  if (HasFailure()) return;
  PlanAndRun(command, FixtureDeviceNamed("ada-geforce-rtx4090"), "vp9",
             ScratchDir() / "vp9-240.mp4", 240, true);
}

// The Ada record with its 10-bit decode stated false: what the fake can run (above).
PlanDevice AdaWithoutTenBitDecode() {
  PlanDevice device = FixtureDeviceNamed("ada-geforce-rtx4090");
  device.flags["decodeHEVCMain10"] = false;
  device.flags["decodeVP9Profile2"] = false;
  return device;
}

TEST(FakeGpuRun, UploadsACpuDecodedTenBitHevcAndEncodesItOnTheGpu) {
  const RunnerCommand command =
      Relocate(FirstRecorded("mp4", "240"), {TestInputNamed("hevc10").file}, "hevc10-240");
  if (HasFailure()) return;
  PlanAndRun(command, AdaWithoutTenBitDecode(), "hevc10", ScratchDir() / "hevc10-240.mp4", 240,
             false);
}

TEST(FakeGpuRun, UploadsACpuDecodedVp9Profile2AndEncodesItOnTheGpu) {
  const RunnerCommand command =
      Relocate(FirstRecorded("mp4", "360"), {TestInputNamed("vp9-profile2").file}, "vp9p2-360");
  if (HasFailure()) return;
  PlanAndRun(command, AdaWithoutTenBitDecode(), "vp9-profile2", ScratchDir() / "vp9p2-360.mp4", 360,
             false);
}

TEST(FakeGpuRun, MergesAStillImageWithAudioOnTheGpu) {
  RunnerForm merge;
  for (const RunnerForm& form :
       testing::SourceForms(TRANSCODE_SOURCE_FORMS, {{"IMAGE", TestInputNamed("png").file.string()},
                                                     {"AUDIO", TestInputNamed("aac").file.string()},
                                                     {"OUT", (ScratchDir() / "merge").string()}})) {
    if (form.name == "audio-merge-aac-copied") merge = form;
  }
  Result<RunnerCommand> command = ParseRunnerCommand(merge.args);
  ASSERT_TRUE(command) << command.error_message();
  // The still image is 641x361: the runner's filter makes it even.
  PlanAndRun(*command, FixtureDeviceNamed("ada-geforce-rtx4090"), "png", ScratchDir() / "merge.mp4",
             360, false);
  const nlohmann::json probe = Probe(ScratchDir() / "merge.mp4");
  const double duration = std::stod(probe["format"].value("duration", "0"));
  EXPECT_NEAR(duration, 3.0, 0.5);  // -shortest: as long as the audio
}

}  // namespace
}  // namespace mc::worker
