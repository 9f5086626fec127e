// ffmpeg's log read by its shape: the level tags that ffmpeg's logger writes, the components
// that speak, the GPU's failures among error lines only, and the log passed on untagged.
// The lines are as Debian's ffmpeg 5.1 prints them with "-loglevel +level".
#include "worker/daemon/ffmpeg_log.h"

#include <gtest/gtest.h>

#include <string>

namespace mc::worker {
namespace {

TEST(ReadLogLine, ReadsTheComponentTheLevelAndTheMessage) {
  const std::string line = "[h264_nvenc @ 0x55df1f08a980] [error] No capable devices found";
  const LogLine read = ReadLogLine(line);
  EXPECT_EQ(read.component, "h264_nvenc");
  EXPECT_EQ(read.level, "error");
  EXPECT_EQ(read.message, "No capable devices found");
  EXPECT_EQ(line.substr(0, read.tag_begin) + line.substr(read.tag_end),
            "[h264_nvenc @ 0x55df1f08a980] No capable devices found");
}

TEST(ReadLogLine, TheInnermostOfNestedComponentsSpeaks) {
  const LogLine read = ReadLogLine(
      "[graph 0 input from stream 0:0 @ 0x1a] [Parsed_scale_cuda_0 @ 0x2b] [error] Failed");
  EXPECT_EQ(read.component, "Parsed_scale_cuda_0");
  EXPECT_EQ(read.level, "error");
}

TEST(ReadLogLine, FfmpegsOwnLinesHaveALevelAndNoComponent) {
  const LogLine read = ReadLogLine("[error] Device creation failed: -542398533.");
  EXPECT_EQ(read.component, "");
  EXPECT_EQ(read.level, "error");
  EXPECT_EQ(read.message, "Device creation failed: -542398533.");
}

TEST(ReadLogLine, AMetadataValuesNextLineHasNoLevel) {
  // A title holding a line break: ffmpeg prints the rest after blanks and a colon.
  const LogLine read = ReadLogLine("                    : [error] No capable devices found");
  EXPECT_EQ(read.level, "");
  EXPECT_EQ(read.tag_begin, read.tag_end);
}

TEST(ReadLogLine, AnUnknownLevelOrABracketOfTheTextIsNoTag) {
  EXPECT_EQ(ReadLogLine("[loud] CUDA_ERROR_UNKNOWN").level, "");
  EXPECT_EQ(ReadLogLine("[h264_nvenc] [error] x").level, "");  // no address: not a component
  EXPECT_EQ(ReadLogLine("[h264_nvenc @ 0xZZ] [error] x").level, "");
  EXPECT_EQ(ReadLogLine("[error]No space").level, "");
  EXPECT_EQ(ReadLogLine("").level, "");
}

// The hardware components of a plan as Plan::hardware_components names them.
const std::vector<std::string> kNvidiaPlan = {"h264_cuvid", "scale_cuda", "h264_nvenc"};
const std::vector<std::string> kVaapiPlan = {"h264", "scale_vaapi", "hevc_vaapi"};

TEST(GpuFailureIn, CountsTheErrorLinesOfThePlansOwnHardwareComponents) {
  EXPECT_TRUE(GpuFailureIn(
      "[h264_nvenc @ 0x1] [error] OpenEncodeSessionEx failed: unsupported device (2): x",
      kNvidiaPlan));
  EXPECT_TRUE(
      GpuFailureIn("a\n[h264_nvenc @ 0x1] [error] No capable devices found\nb", kNvidiaPlan));
  EXPECT_TRUE(GpuFailureIn("[AVHWDeviceContext @ 0x2] [error] cuCtxCreate(...) failed"));
  EXPECT_TRUE(
      GpuFailureIn("[h264 @ 0x3] [error] Failed setup for format vaapi: hwaccel", kVaapiPlan));
  EXPECT_TRUE(GpuFailureIn("[hevc_vaapi @ 0x4] [fatal] vaCreateContext failed", kVaapiPlan));
  // A filter speaks under its instance's name.
  EXPECT_TRUE(
      GpuFailureIn("[Parsed_scale_cuda_0 @ 0x5] [error] CUDA_ERROR_LAUNCH_FAILED: x", kNvidiaPlan));
}

TEST(GpuFailureIn, GivesTheLineWithoutItsTag) {
  EXPECT_EQ(GpuFailureIn("[h264_nvenc @ 0x1] [error] EncodePicture failed!: generic error (20)",
                         kNvidiaPlan),
            "[h264_nvenc @ 0x1] EncodePicture failed!: generic error (20)");
}

// ffmpeg prints a metadata key raw, line breaks and all: the key
// "comment\n[error] CUDA_ERROR_OUT_OF_MEMORY" makes a line that reads as ffmpeg's own error.
TEST(GpuFailureIn, AMetadataKeyThatForgesAnErrorLineWithoutAComponentIsNoMark) {
  const std::string log =
      "[info] Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/w/in':\n"
      "[info]   Metadata:\n"
      "[info]     comment\n"
      "[error] CUDA_ERROR_OUT_OF_MEMORY: fixed a bug\n"
      "[h264_cuvid @ 0x55d0] [error] Video width 32 not within range from 48 to 4096\n"
      "[error] Device creation failed: -542398533.\n";
  EXPECT_FALSE(GpuFailureIn(log, kNvidiaPlan));
  FfmpegLog read(kNvidiaPlan);
  read.Read(log);
  read.Finish();
  EXPECT_FALSE(read.gpu_failure());
}

TEST(GpuFailureIn, AHardwareComponentTheJobsPlanDidNotNameIsNoMark) {
  EXPECT_FALSE(GpuFailureIn("[hevc_nvenc @ 0x1] [error] EncodePicture failed", kNvidiaPlan));
  EXPECT_FALSE(GpuFailureIn("[h264_nvenc @ 0x1] [error] EncodePicture failed"));
  EXPECT_FALSE(GpuFailureIn("[Parsed_scale_cudax_0 @ 0x5] [error] CUDA_ERROR_X", {"scale_cuda"}));
  EXPECT_FALSE(GpuFailureIn("[Parsed_scale_cuda_ @ 0x5] [error] CUDA_ERROR_X", {"scale_cuda"}));
  // Software decoders spoke for the GPU only where the plan decodes through their hwaccel.
  EXPECT_FALSE(
      GpuFailureIn("[h264 @ 0x3] [error] Failed setup for format cuda: hwaccel", kNvidiaPlan));
}

TEST(GpuFailureIn, NeverCountsTextOfTheInputOrOtherLevelsOrOtherComponents) {
  // The input's metadata, as ffmpeg dumps it: an [info] line, then the rest of the value.
  EXPECT_FALSE(
      GpuFailureIn("[info]     title           : x CUDA_ERROR_OUT_OF_MEMORY\n"
                   "                    : [error] No capable devices found\n"
                   "[info]       handler_name    : OpenEncodeSessionEx failed\n"));
  EXPECT_FALSE(GpuFailureIn("[h264_nvenc @ 0x1] [warning] NV_ENC_ERR_INVALID_PARAM"));
  // A demuxer's error may quote the input (a URL, a name): it is no GPU's.
  EXPECT_FALSE(GpuFailureIn("[hls @ 0x5] [error] Failed to open http://h/CUDA_ERROR_X.ts"));
  EXPECT_FALSE(GpuFailureIn("[mov,mp4,m4a,3gp,3g2,mj2 @ 0x6] [error] NV_ENC_ERR in moov"));
  // Lines without tags, as a program that was not asked for them prints.
  EXPECT_FALSE(GpuFailureIn("OpenEncodeSessionEx failed: unsupported device (2)"));
  EXPECT_FALSE(GpuFailureIn("[error] Conversion failed!"));
  EXPECT_FALSE(GpuFailureIn("[info] frame=  100 fps= 50 q=23.0 size=     256kB"));
}

TEST(FfmpegLog, PassesTheLogOnWithoutTheTagsAndKeepsTheFirstFailure) {
  FfmpegLog log(kNvidiaPlan);
  // Each Read in its own statement: the order of a sum's operands is the compiler's.
  std::string passed = log.Read("[info] frame=    1 fps=0.0\r[info] frame=    5 fps=0.0\r\n");
  passed += log.Read("[info]     title           : CUDA_ERROR_X\n");
  passed += log.Read("[h264_nvenc @ 0x1] [error] EncodePicture failed!: generic error (20)\n");
  passed += log.Read("[error] Device creation failed: -1.\n[info] Conversion failed!");
  passed += log.Finish();
  EXPECT_EQ(passed,
            "frame=    1 fps=0.0\rframe=    5 fps=0.0\r\n"
            "    title           : CUDA_ERROR_X\n"
            "[h264_nvenc @ 0x1] EncodePicture failed!: generic error (20)\n"
            "Device creation failed: -1.\nConversion failed!");
  EXPECT_EQ(log.gpu_failure(), "[h264_nvenc @ 0x1] EncodePicture failed!: generic error (20)");
}

TEST(FfmpegLog, ReadsTheSameWhateverPiecesTheLogComesIn) {
  const std::string text =
      "[info] Input #0\n[info]     title           : a\n                    : [error] "
      "CUDA_ERROR_Y\r[AVHWDeviceContext @ 0x9] [error] cuCtxCreate failed\n[info] end";
  FfmpegLog whole;
  std::string at_once = whole.Read(text);
  at_once += whole.Finish();
  FfmpegLog bytes;
  std::string one_by_one;
  for (const char c : text) one_by_one += bytes.Read(std::string(1, c));
  one_by_one += bytes.Finish();
  EXPECT_EQ(one_by_one, at_once);
  EXPECT_EQ(bytes.gpu_failure(), whole.gpu_failure());
  EXPECT_EQ(whole.gpu_failure(), "[AVHWDeviceContext @ 0x9] cuCtxCreate failed");
}

TEST(FfmpegLog, TheRestOfALineTooLongToReadIsNeverALineOfItsOwn) {
  FfmpegLog log;
  const std::string long_value = "[info]     title           : " + std::string(70000, 'x');
  std::string passed = log.Read(long_value);
  passed += log.Read("[error] Device creation failed: -1.\n");
  passed += log.Finish();
  EXPECT_FALSE(log.gpu_failure());
  EXPECT_EQ(passed, long_value + "[error] Device creation failed: -1.\n");
}

TEST(ProcessedSeconds, ReadsTheTimeOfAProgressLineAndNothingElse) {
  EXPECT_EQ(ProcessedSeconds("frame=  150 fps= 30 q=-0.0 size=N/A time=00:00:05.00 bitrate=N/A"),
            5.0);
  EXPECT_EQ(ProcessedSeconds("size=     256kB time=01:02:03.50 bitrate= 128.0kbits/s"), 3723.5);
  EXPECT_EQ(ProcessedSeconds("frame=    0 fps=0.0 q=0.0 size=0kB time=-577014:32:22.77 x"),
            std::nullopt);
  EXPECT_EQ(ProcessedSeconds("frame=    0 fps=0.0 q=0.0 size=N/A time=N/A bitrate=N/A"),
            std::nullopt);
  EXPECT_EQ(ProcessedSeconds("    title           : frame= time=00:10:00.00"), std::nullopt);
  EXPECT_EQ(ProcessedSeconds("frame=1 time=00:61:00.00 x"), std::nullopt);
}

TEST(ProcessedFrames, ReadsTheFrameCountOfAProgressLineAndNothingElse) {
  EXPECT_EQ(ProcessedFrames("frame=  150 fps= 30 q=-0.0 size=N/A time=00:00:05.00"), 150);
  EXPECT_EQ(ProcessedFrames("frame=1 fps=0.0 q=0.0 size=0kB time=00:00:00.00"), 1);
  EXPECT_EQ(ProcessedFrames("size=     256kB time=01:02:03.50 bitrate= 128.0kbits/s"),
            std::nullopt);
  EXPECT_EQ(ProcessedFrames("frame=  -3 fps=0.0"), std::nullopt);
  EXPECT_EQ(ProcessedFrames("frame=    "), std::nullopt);
  EXPECT_EQ(ProcessedFrames("    title           : frame=9"), std::nullopt);
}

TEST(FfmpegLog, KeepsTheTimeOfFfmpegsLastProgressLineNotTheInputsWords) {
  FfmpegLog log;
  log.Read("[info]   Duration: 08:20:00.00, start: 0.000000, bitrate: 41 kb/s\n");
  log.Read("[info] frame=   60 fps=0.0 q=-0.0 size=N/A time=00:00:02.00 bitrate=N/A\r");
  log.Read("[info] frame=  150 fps=0.0 q=-0.0 Lsize=N/A time=00:00:05.00 bitrate=N/A\n");
  // A tag of the input, printed on a continuation line, and a component's line are not ffmpeg's
  // progress.
  log.Read("                    : frame= 1 time=10:00:00.00 x\n");
  log.Read("[h264_nvenc @ 0x1] [info] frame= 1 time=10:00:00.00 x\n");
  log.Finish();
  EXPECT_EQ(log.processed_seconds(), 5.0);
}

TEST(WithLevelTags, AsksForTagsRightAfterTheProgram) {
  EXPECT_EQ(WithLevelTags({"/usr/bin/ffmpeg", "-loglevel", "error", "-i", "in.mp4"}),
            (std::vector<std::string>{"/usr/bin/ffmpeg", "-loglevel", "+level", "-loglevel",
                                      "error", "-i", "in.mp4"}));
  EXPECT_TRUE(WithLevelTags({}).empty());
}

}  // namespace
}  // namespace mc::worker
