#include "worker/transcode/runner_command.h"

#include <gtest/gtest.h>

#include "runner_forms.h"

namespace mc::worker {
namespace {

using testing::SplitShellWords;

std::vector<std::string> Words(const std::string& line) { return SplitShellWords(line); }

const char* kRecordedWebVideo =
    "-i /w/in -y -acodec copy -vcodec libx264 -threads 2 -f mp4 -movflags faststart "
    "-max_muxing_queue_size 1024 -map_metadata -1 -pix_fmt yuv420p -vf scale=w=-2:h=720 "
    "-preset veryfast -maxrate:v 552966 -bufsize:v 1105932 -b_strategy 1 -bf 16 -r 30 -g:v 60 "
    "/w/out.mp4";

TEST(RunnerCommand, SplitsTheRecordedWebVideoFormIntoItsInputAndOutput) {
  Result<RunnerCommand> command = ParseRunnerCommand(Words(kRecordedWebVideo));
  ASSERT_TRUE(command) << command.error_message();
  ASSERT_EQ(command->inputs.size(), 1u);
  EXPECT_EQ(command->inputs[0].path, "/w/in");
  EXPECT_EQ(command->inputs[0].position, 0);
  ASSERT_EQ(command->global_options.size(), 1u);
  EXPECT_EQ(command->global_options[0].name, "-y");
  EXPECT_EQ(command->global_options[0].position, 2);
  ASSERT_EQ(command->outputs.size(), 1u);
  const CommandOutput& output = command->outputs[0];
  EXPECT_EQ(output.path, "/w/out.mp4");
  ASSERT_EQ(output.options.size(), 16u);
  EXPECT_EQ(output.options[0].name, "-acodec");
  EXPECT_EQ(output.options[10].name, "-maxrate:v");
  EXPECT_EQ(output.options[10].value, "552966");
  EXPECT_EQ(output.options[15].name, "-g:v");
  EXPECT_EQ(VideoCodecOf(output), "libx264");
  EXPECT_EQ(KindOf(*command), CommandKind::kVideoEncode);
  EXPECT_EQ(InputsToProbe(*command), std::vector<std::string>{"/w/in"});
}

TEST(RunnerCommand, RendersBackExactlyWhatItRead) {
  for (const char* line :
       {kRecordedWebVideo, "-encoders", "-h encoder=h264_nvenc",
        "-loop 1 -i a.png -i b.m4a -y -shortest o.mp4", "-i in -f null -",
        "-i in -y -threads 2 -c copy -copyts -bsf:a aac_adtstoasc -f hls o.m3u8"}) {
    Result<RunnerCommand> command = ParseRunnerCommand(Words(line));
    ASSERT_TRUE(command) << line << ": " << command.error_message();
    EXPECT_EQ(RenderCommand(*command), Words(line)) << line;
  }
}

TEST(RunnerCommand, TellsEachKindOfCommand) {
  const auto kind = [](const std::string& line) {
    Result<RunnerCommand> command = ParseRunnerCommand(Words(line));
    EXPECT_TRUE(command) << line;
    return command ? KindOf(*command) : CommandKind::kOther;
  };
  EXPECT_EQ(kind("-encoders"), CommandKind::kListing);
  EXPECT_EQ(kind("-hide_banner -formats"), CommandKind::kListing);
  EXPECT_EQ(kind("-h encoder=libx264"), CommandKind::kListing);
  EXPECT_EQ(kind("-version"), CommandKind::kListing);
  EXPECT_EQ(kind("-i in.mp4"), CommandKind::kProbe);
  EXPECT_EQ(kind("-i in -acodec aac -vn o.m3u8"), CommandKind::kAudioOnly);
  EXPECT_EQ(kind("-i in -acodec copy -vcodec copy o.mp4"), CommandKind::kOther);
  EXPECT_EQ(kind("-i in -c copy o.mp4"), CommandKind::kOther);
  EXPECT_EQ(kind("-i in -acodec aac o.mp4"), CommandKind::kVideoEncode);
  EXPECT_EQ(kind("-i in -codec:v libx264 o.mp4"), CommandKind::kVideoEncode);
}

TEST(RunnerCommand, ProbesTheInputAVideoOutputMaps) {
  Result<RunnerCommand> command =
      ParseRunnerCommand(Words("-i audio.m4a -i video.mp4 -map 1:v -map 0:a -c:v libx264 o.mp4"));
  ASSERT_TRUE(command);
  EXPECT_EQ(InputsToProbe(*command), std::vector<std::string>{"video.mp4"});
  Result<RunnerCommand> merge = ParseRunnerCommand(
      Words("-loop 1 -i still.png -i audio.m4a -y -vcodec libx264 -shortest o.mp4"));
  ASSERT_TRUE(merge);
  EXPECT_EQ(InputsToProbe(*merge), std::vector<std::string>{"still.png"});
  ASSERT_EQ(merge->inputs[0].options.size(), 1u);
  EXPECT_EQ(merge->inputs[0].options[0].name, "-loop");
}

struct BadArgv {
  const char* line;
  const char* error;
};

class RunnerCommandBadInput : public ::testing::TestWithParam<BadArgv> {};

TEST_P(RunnerCommandBadInput, NamesTheArgumentAndItsPlace) {
  Result<RunnerCommand> command = ParseRunnerCommand(Words(GetParam().line));
  ASSERT_FALSE(command);
  EXPECT_EQ(command.error_message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RunnerCommandBadInput,
    ::testing::Values(BadArgv{"-i in -vf", "argument 3 (-vf): the option has no value"},
                      BadArgv{"-i", "argument 1 (-i): the option has no value"},
                      BadArgv{"out.mp4 -i in",
                              "argument 1 (out.mp4): an output file before any input (-i)"},
                      BadArgv{"-i in -c:v libx264 o.mp4 -r 30",
                              "argument 6 (-r): options after the last output apply to no file"},
                      BadArgv{"-i '' o.mp4", "argument 1 (-i): an empty input path"},
                      BadArgv{"-i in '' o.mp4", "argument 3 (): an empty argument"}));

}  // namespace
}  // namespace mc::worker
