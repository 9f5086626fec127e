// `media-capabilities ffmpeg-plan`, the binary itself: its output and its exit statuses.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/run_command.h"
#include "test_media.h"

namespace mc::worker {
namespace {

using testing::ScratchDir;

std::string WriteDevice(const std::string& fixture) {
  const std::string path = (ScratchDir() / (fixture + ".json")).string();
  std::ofstream(path) << testing::FixtureNamed(fixture).json;
  return path;
}

probe::ChildOutcome Plan(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {MEDIA_CAP_BINARY, "ffmpeg-plan"});
  return mc::testing::RunCommand(arguments);
}

TEST(FfmpegPlanCommand, PrintsTheRunPlanAndExitsZero) {
  const std::string facts = (ScratchDir() / "h264.facts.json").string();
  std::ofstream(facts) << testing::TestInputNamed("h264").ffprobe_json;
  const probe::ChildOutcome plan =
      Plan({"--device", WriteDevice("ada-geforce-rtx4090"), "--input-facts", facts,
            "--nvenc-preset", "p6", "--cuda-ordinal", "1", "--", "-i", "/w/in", "-y", "-vcodec",
            "libx264", "-vf", "scale=w=-2:h=480", "-bf", "16", "/w/o.mp4"});
  ASSERT_EQ(plan.code, 0) << plan.err;
  const nlohmann::json json = nlohmann::json::parse(plan.out);
  EXPECT_EQ(json["run"],
            nlohmann::json::parse(
                R"(["-hwaccel","cuda","-hwaccel_output_format","cuda","-hwaccel_device",
                              "1","-c:v","h264_cuvid","-i","/w/in","-y","-c:v","h264_nvenc","-gpu",
                              "1","-preset","p6","-vf","scale_cuda=w=-2:h=480:format=nv12",
                              "/w/o.mp4"])"));
  EXPECT_EQ(json["encoder"], "h264_nvenc");
  EXPECT_EQ(json["output_height"], 480);
}

TEST(FfmpegPlanCommand, ExitsOneWithTheRefusal) {
  const probe::ChildOutcome plan = Plan(
      {"--device", WriteDevice("h200"), "--", "-i", "/w/in", "-vcodec", "libx264", "/w/o.mp4"});
  EXPECT_EQ(plan.code, 1) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["refuse"],
            "the input facts of /w/in are missing: a video encode needs them to choose the decoder "
            "on pci-0000-00-06-0 (nvidia)");
}

TEST(FfmpegPlanCommand, PassesAListingThrough) {
  const probe::ChildOutcome plan = Plan({"--device", WriteDevice("h200"), "--", "-encoders"});
  EXPECT_EQ(plan.code, 0) << plan.err;
  EXPECT_EQ(plan.out, "{\"pass\":[\"-encoders\"],\"job_form\":\"listing\"}\n");
}

TEST(FfmpegPlanCommand, ExitsTwoOnBadUsageWithTheErrorInWords) {
  const std::string bad = (ScratchDir() / "bad-device.json").string();
  std::ofstream(bad) << R"({"name":"x","attributes":{"api":{"string":3}}})";
  const std::string ada = WriteDevice("ada-geforce-rtx4090");
  for (const auto& [arguments, error] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--", "-encoders"}, "ffmpeg-plan: --device DEVICE.json is required\n"},
           {{"--device", ada}, "ffmpeg-plan: no ffmpeg arguments after --\n"},
           {{"--device", bad, "--", "-encoders"},
            "ffmpeg-plan: --device " + bad + ": device.attributes.api.string: expected a string\n"},
           {{"--device", ada, "--cuda-ordinal", "one", "--", "-encoders"},
            "ffmpeg-plan: --cuda-ordinal: expected a whole number, got one\n"},
           {{"--device", ada, "--bogus", "--", "-encoders"},
            "ffmpeg-plan: unknown argument --bogus before --\n"}}) {
    const probe::ChildOutcome plan = Plan(arguments);
    EXPECT_EQ(plan.code, 2) << error;
    EXPECT_EQ(plan.err, error);
    EXPECT_EQ(plan.out, "");
  }
}

}  // namespace
}  // namespace mc::worker
