// The rules of the translation, one by one, on fixture GPUs as the binary probes them and on
// the facts Debian's ffprobe gives of real files.
#include "worker/transcode/plan.h"

#include <gtest/gtest.h>

#include "plan_checks.h"
#include "runner_forms.h"
#include "test_media.h"
#include "worker/transcode/plan_json.h"

namespace mc::worker {
namespace {

using testing::FixtureDeviceNamed;
using testing::Holds;
using testing::HoldsPair;
using testing::SplitShellWords;
using testing::TestInputNamed;

const char* kWebVideo =
    "-i /w/in -y -acodec copy -vcodec libx264 -threads 2 -f mp4 -movflags faststart "
    "-max_muxing_queue_size 1024 -map_metadata -1 -pix_fmt yuv420p -vf scale=w=-2:h=720 "
    "-preset veryfast -maxrate:v 552966 -bufsize:v 1105932 -b_strategy 1 -bf 16 -r 30 -g:v 60 "
    "/w/out.mp4";

const char* kHls =
    "-i /w/in -y -acodec aac -vcodec libx264 -threads 2 -f mp4 -movflags faststart "
    "-max_muxing_queue_size 1024 -map_metadata -1 -pix_fmt yuv420p -channel_layout stereo "
    "-vf scale=w=-2:h=480 -preset veryfast -maxrate:v 324689.3 -bufsize:v 649378.6 -b_strategy 1 "
    "-bf 16 -r 30 -g:v 60 -hls_time 4 -hls_list_size 0 -hls_playlist_type vod "
    "-hls_segment_filename /w/x-480-fragmented.mp4 -hls_segment_type fmp4 -f hls "
    "-hls_flags single_file /w/x-480.m3u8";

const char* kMerge =
    "-loop 1 -i /w/still -i /w/audio -y -acodec copy -vcodec libx264 -threads 2 -f mp4 "
    "-movflags faststart -max_muxing_queue_size 1024 -map_metadata -1 -pix_fmt yuv420p "
    "-vf scale=trunc(iw/2)*2:trunc(ih/2)*2 -preset veryfast -maxrate:v 324689.3 "
    "-bufsize:v 649378.6 -b_strategy 1 -bf 16 -r 25 -g:v 50 -preset:v veryfast -tune stillimage "
    "-shortest /w/out.mp4";

Plan PlanLine(const std::string& line, const PlanDevice& device,
              const std::optional<InputFacts>& facts, PlanOptions options = {}) {
  return PlanArgv(SplitShellWords(line), device, facts, options);
}

PlanOptions VaapiOptions() {
  PlanOptions options;
  options.render_node = "/dev/dri/renderD128";
  return options;
}

TEST(Plan, RunsTheRecordedWebVideoOnAdaWithNvencAndCuvid) {
  const Plan plan =
      PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_EQ(
      plan.argv,
      SplitShellWords(
          "-hwaccel cuda -hwaccel_output_format cuda -hwaccel_device 0 -c:v h264_cuvid "
          "-i /w/in -y -acodec copy -c:v h264_nvenc -gpu 0 -preset p5 -rc vbr -b:v 552966 "
          "-threads 2 -f mp4 -movflags faststart -max_muxing_queue_size 1024 -map_metadata -1 "
          "-vf scale_cuda=w=-2:h=720:format=nv12 -maxrate:v 552966 -bufsize:v 1105932 -r 30 "
          "-g:v 60 /w/out.mp4"));
  EXPECT_EQ(plan.encoder, "h264_nvenc");
  EXPECT_EQ(plan.job_form, "web-video");
  EXPECT_EQ(plan.encode_sessions, 1);
  EXPECT_TRUE(plan.hardware_decode);
  EXPECT_EQ(plan.output_height, 720);
  EXPECT_DOUBLE_EQ(plan.output_fps, 30);
  EXPECT_EQ(plan.environment, std::vector<std::string>{"CUDA_DEVICE_ORDER=PCI_BUS_ID"});
}

TEST(Plan, ReadsAnOutputRateWrittenAsARatio) {
  std::string line = kWebVideo;
  const std::size_t rate = line.find("-r 30 ");
  ASSERT_NE(rate, std::string::npos);
  line.replace(rate, 6, "-r 30000/1001 ");
  const Plan plan =
      PlanLine(line, FixtureDeviceNamed("ada-geforce-rtx4090"), TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_NEAR(plan.output_fps, 29.97, 0.01);
}

TEST(Plan, KeepsTheRunnersHlsOptionsAsWritten) {
  const Plan plan =
      PlanLine(kHls, FixtureDeviceNamed("ampere-rtx-a4000"), TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  Result<RunnerCommand> runner = ParseRunnerCommand(SplitShellWords(kHls));
  ASSERT_TRUE(runner);
  EXPECT_EQ(testing::KeptOptionsInOrder(*runner, plan.argv), "");
  EXPECT_EQ(plan.job_form, "hls");
  // The two -f stay, mp4 first and hls last, as the runner wrote them: the last one wins.
  EXPECT_TRUE(HoldsPair(plan.argv, "-f", "mp4"));
  EXPECT_EQ(plan.argv[plan.argv.size() - 5], "-f");
  EXPECT_EQ(plan.argv[plan.argv.size() - 4], "hls");
}

TEST(Plan, UsesTheConfiguredPresetAndOrdinal) {
  PlanOptions options;
  options.nvenc_preset = "p7";
  options.cuda_ordinal = 3;
  const Plan plan = PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"),
                             TestInputNamed("h264").facts, options);
  ASSERT_EQ(plan.kind, PlanKind::kRun);
  EXPECT_TRUE(HoldsPair(plan.argv, "-preset", "p7"));
  EXPECT_TRUE(HoldsPair(plan.argv, "-gpu", "3"));
  EXPECT_TRUE(HoldsPair(plan.argv, "-hwaccel_device", "3"));
}

TEST(Plan, CapsTheRunnersBFramesOnlyWhenTold) {
  const PlanDevice& ada = FixtureDeviceNamed("ada-geforce-rtx4090");
  EXPECT_FALSE(Holds(PlanLine(kWebVideo, ada, TestInputNamed("h264").facts).argv, "-bf"));
  PlanOptions options;
  options.max_b_frames = 3;
  const Plan plan = PlanLine(kWebVideo, ada, TestInputNamed("h264").facts, options);
  EXPECT_TRUE(HoldsPair(plan.argv, "-bf", "3"));
  EXPECT_FALSE(Holds(plan.argv, "-b_strategy"));
}

TEST(Plan, DecodesOnTheCpuAndUploadsWithANoteWhereTheGpuDoesNotDecode) {
  // The Polaris dump states no VP9 decode.
  const Plan plan = PlanLine(kWebVideo, FixtureDeviceNamed("amd-radeonsi-polaris12-rx550x"),
                             TestInputNamed("vp9").facts, VaapiOptions());
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_FALSE(plan.hardware_decode);
  EXPECT_FALSE(Holds(plan.argv, "-hwaccel"));
  EXPECT_TRUE(
      HoldsPair(plan.argv, "-vf", "format=nv12,hwupload,scale_vaapi=w=-2:h=720:format=nv12"));
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_EQ(plan.notes[0],
            "pci-0000-01-00-0 does not state decodeVP9: /w/in (vp9 8-bit yuv420p) is decoded on "
            "the CPU, and uploaded with hwupload to be scaled and encoded on the GPU");
}

TEST(Plan, DecodesTenBitHevcOnTheGpuWhereTheDeviceStatesMain10) {
  const Plan plan = PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"),
                             TestInputNamed("hevc10").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_TRUE(plan.hardware_decode);
  EXPECT_TRUE(HoldsPair(plan.argv, "-c:v", "hevc_cuvid"));
  EXPECT_TRUE(HoldsPair(plan.argv, "-vf", "scale_cuda=w=-2:h=720:format=nv12"));
}

// NVDEC's H.264 range starts at 48x16: h264_cuvid refuses a 32x32 picture, which is the
// upload's doing, so the plan decodes it on the CPU before anything runs.
TEST(Plan, DecodesA32x32H264OnTheCpuSinceNvdecsRangeStartsAt48Wide) {
  InputFacts tiny = TestInputNamed("h264").facts;
  tiny.width = 32;
  tiny.height = 32;
  const Plan plan = PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), tiny);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_FALSE(plan.hardware_decode);
  EXPECT_FALSE(Holds(plan.argv, "h264_cuvid"));
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_EQ(plan.notes[0],
            "/w/in (h264 8-bit yuv420p): 32x32 is outside NVDEC's h264 range (48x16 to "
            "4096x4096): it is decoded on the CPU, and uploaded with hwupload_cuda to be scaled "
            "and encoded on the GPU");
}

TEST(Plan, DecodesAnHevcUnder144OnTheCpuAndA4096WideH264OnTheGpu) {
  InputFacts hevc = TestInputNamed("hevc10").facts;
  hevc.width = 128;
  hevc.height = 128;
  EXPECT_FALSE(
      PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), hevc).hardware_decode);
  InputFacts wide = TestInputNamed("h264").facts;
  wide.width = 4096;
  wide.height = 2160;
  EXPECT_TRUE(PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), wide).hardware_decode);
  wide.width = 4100;
  EXPECT_FALSE(
      PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), wide).hardware_decode);
}

// Only these components' error lines can name a GPU failure in the job's log.
TEST(Plan, NamesItsOwnHardwareComponentsAndNoOthers) {
  const Plan nvidia =
      PlanLine(kWebVideo, FixtureDeviceNamed("ada-geforce-rtx4090"), TestInputNamed("h264").facts);
  EXPECT_EQ(nvidia.hardware_components,
            (std::vector<std::string>{"h264_cuvid", "h264_nvenc", "scale_cuda"}));
  const Plan vaapi = PlanLine(kWebVideo, FixtureDeviceNamed("amd-radeonsi-polaris12-rx550x"),
                              TestInputNamed("h264").facts, VaapiOptions());
  EXPECT_EQ(vaapi.hardware_components,
            (std::vector<std::string>{"h264", "h264_vaapi", "scale_vaapi"}));
}

TEST(Plan, EncodesTheAudioMergesStillImageOnTheGpuAfterACpuDecode) {
  const Plan plan =
      PlanLine(kMerge, FixtureDeviceNamed("ada-geforce-rtx4090"), TestInputNamed("png").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_EQ(plan.job_form, "audio-merge");
  EXPECT_FALSE(plan.hardware_decode);
  EXPECT_TRUE(HoldsPair(plan.argv, "-loop", "1"));
  EXPECT_TRUE(Holds(plan.argv, "-shortest"));
  EXPECT_FALSE(Holds(plan.argv, "-tune"));
  EXPECT_TRUE(HoldsPair(
      plan.argv, "-vf",
      "format=nv12,hwupload_cuda=device=0,scale_cuda=w=trunc(iw/2)*2:h=trunc(ih/2)*2:format=nv12"));
  EXPECT_EQ(plan.output_height, 360);
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes[0].find("/w/still is a still image (png)"), std::string::npos);
}

TEST(Plan, TakesTheLowPowerEntryPointExactlyWhereItIsTheOnlyOne) {
  const InputFacts& h264 = TestInputNamed("h264").facts;
  const Plan arc =
      PlanLine(kWebVideo, FixtureDeviceNamed("intel-ihd-arc-likely-24.1"), h264, VaapiOptions());
  ASSERT_EQ(arc.kind, PlanKind::kRun) << arc.refusal;
  EXPECT_TRUE(HoldsPair(arc.argv, "-low_power", "1"));
  EXPECT_TRUE(HoldsPair(arc.argv, "-vaapi_device", "/dev/dri/renderD128"));
  EXPECT_EQ(arc.argv[0], "-vaapi_device");
  EXPECT_TRUE(HoldsPair(arc.argv, "-hwaccel", "vaapi"));
  EXPECT_TRUE(HoldsPair(arc.argv, "-vf", "scale_vaapi=w=-2:h=720:format=nv12"));
  const Plan dg1 =
      PlanLine(kWebVideo, FixtureDeviceNamed("intel-ihd-dg1-gen12-24.1"), h264, VaapiOptions());
  ASSERT_EQ(dg1.kind, PlanKind::kRun) << dg1.refusal;
  EXPECT_TRUE(HoldsPair(dg1.argv, "-c:v", "h264_vaapi"));
  EXPECT_FALSE(Holds(dg1.argv, "-low_power"));
}

TEST(Plan, RefusesOnTheH200NamingTheMissingCapability) {
  const Plan plan = PlanLine(kWebVideo, FixtureDeviceNamed("h200"), TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRefuse);
  EXPECT_EQ(plan.refusal,
            "pci-0000-00-06-0 (nvidia) does not encode H.264: it states neither encodeH264 nor "
            "encodeH264LowPower");
  EXPECT_TRUE(plan.argv.empty());
}

TEST(Plan, AnUploadWhoseStatedSizeOverflowsAnIntIsRefusedForThePictureItWouldAskOfNvenc) {
  const PlanDevice& ada = FixtureDeviceNamed("ada-geforce-rtx4090");
  // A Matroska stream no decoder opens: ffprobe prints the container's 65535x65535 and no codec.
  InputFacts square;
  square.has_video = true;
  square.width = square.height = 65535;
  square.fps = 5;
  EXPECT_EQ(
      PlanLine("-i /w/in -vcodec libx264 -vf scale=w=-2:h=65534 /w/o.mp4", ada, square).refusal,
      "output 1 (/w/o.mp4): the picture 65534x65534 is larger than h264_nvenc takes "
      "(4096x4096) on pci-0000-01-00-0");
  // A line of 2^20 pixels scaled to 4320 lines: its width saturates, and is refused whole.
  InputFacts line = square;
  line.width = kMaxPictureSide;
  line.height = 1;
  EXPECT_EQ(PlanLine("-i /w/in -vcodec libx264 -vf scale=w=-2:h=4320 /w/o.mp4", ada, line).refusal,
            "output 1 (/w/o.mp4): the picture 2147483646x4320 is larger than h264_nvenc takes "
            "(4096x4096) on pci-0000-01-00-0");
}

TEST(Plan, RefusesWhatItCannotTranslate) {
  const PlanDevice& ada = FixtureDeviceNamed("ada-geforce-rtx4090");
  const InputFacts& h264 = TestInputNamed("h264").facts;
  EXPECT_EQ(PlanLine("-i /w/in -c:v libx265 /w/o.mp4", ada, h264).refusal,
            "output 1 (/w/o.mp4) asks for video codec libx265, which has no hardware mapping on "
            "pci-0000-01-00-0 (nvidia); only libx264 is translated");
  EXPECT_EQ(PlanLine(kWebVideo, ada, std::nullopt).refusal,
            "the input facts of /w/in are missing: a video encode needs them to choose the decoder "
            "on pci-0000-01-00-0 (nvidia)");
  EXPECT_EQ(PlanLine("-i /w/in -vcodec libx264 -pix_fmt yuv420p10le /w/o.mp4", ada, h264).refusal,
            "output 1 (/w/o.mp4) asks for an H.264 encode in yuv420p10le (-pix_fmt), which "
            "pci-0000-01-00-0 does not do: its H.264 encoder takes 8-bit 4:2:0 alone");
  EXPECT_EQ(PlanLine("-i /w/in -vcodec libx264 -vf yadif /w/o.mp4", ada, h264).refusal,
            "output 1 (/w/o.mp4): the video filter \"yadif\" has no hardware mapping; only scale "
            "is translated");
  EXPECT_EQ(PlanLine("-i /w/in -vcodec libx264 -vf scale=w=-2:h=4320 /w/o.mp4", ada, h264).refusal,
            "output 1 (/w/o.mp4): the picture 7680x4320 is larger than h264_nvenc takes "
            "(4096x4096) on pci-0000-01-00-0");
  EXPECT_EQ(PlanLine("-i /w/in -vcodec libx264 -vf", ada, h264).refusal,
            "the ffmpeg command line does not parse: argument 5 (-vf): the option has no value");
  EXPECT_EQ(PlanLine(kWebVideo, FixtureDeviceNamed("intel-ihd-dg1-gen12-24.1"), h264).refusal,
            "pci-0000-01-00-0 (vaapi) is a VA-API device, and no render node was given for it");
}

TEST(Plan, PassesListingsAudioAndCopiesThroughUnchanged) {
  const PlanDevice& h200 = FixtureDeviceNamed("h200");
  for (const auto& [line, form] : std::vector<std::pair<std::string, std::string>>{
           {"-encoders", "listing"},
           {"-formats", "listing"},
           {"-h encoder=libx264", "listing"},
           {"-i /w/in", "probe"},
           {"-i /w/in -y -acodec aac -vn -f hls /w/a.m3u8", "audio-only"},
           {"-i /w/in -y -acodec copy -vcodec copy -f mp4 /w/o.mp4", "other"},
           // Runner 0.4 and later copy an HLS rendition's codecs where they can.
           {"-i /w/in -y -c:v copy -c:a copy -f hls -hls_time 4 /w/0.m3u8", "other"},
           // PeerTube 8's storyboard: one tiled .jpg; ffmpeg chooses mjpeg for it.
           {"-i /w/in -y -filter_complex fps=1/2,scale=192:108,tile=layout=10x10 -frames:v 1 "
            "-q:v 2 /w/storyboard.jpg",
            "image"},
           {"-i /w/in -y -vf scale=320:-2 -frames:v 1 -f image2 /w/thumb", "image"},
           {"-i /w/in -y -c:v png -frames:v 1 /w/frame.out", "image"}}) {
    const Plan plan = PlanLine(line, h200, std::nullopt);
    EXPECT_EQ(plan.kind, PlanKind::kPassThrough) << line << ": " << plan.refusal;
    EXPECT_EQ(plan.argv, SplitShellWords(line));
    EXPECT_EQ(plan.job_form, form) << line;
    EXPECT_EQ(plan.encode_sessions, 0);
  }
  // No codec written and no video stream: ffmpeg opens no video encoder.
  const Plan audio = PlanLine("-i /w/a -acodec aac /w/o.mp4", h200, TestInputNamed("aac").facts);
  EXPECT_EQ(audio.kind, PlanKind::kPassThrough);
}

TEST(Plan, LeavesAnImageOutputAsItIsBesideAVideoOutputItTranslates) {
  const Plan plan =
      PlanLine("-i /w/in -acodec copy /w/o.mp4 -frames:v 1 /w/poster.JPG",
               FixtureDeviceNamed("ada-geforce-rtx4090"), TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_EQ(plan.encode_sessions, 1);
  EXPECT_EQ(plan.argv.back(), "/w/poster.JPG");
  EXPECT_EQ(plan.argv[plan.argv.size() - 2], "1");
}

TEST(Plan, TranslatesAnOutputThatNamesNoCodecButHasAVideoStream) {
  const Plan plan =
      PlanLine("-i /w/in -acodec copy /w/o.mp4", FixtureDeviceNamed("ada-geforce-rtx4090"),
               TestInputNamed("h264").facts);
  ASSERT_EQ(plan.kind, PlanKind::kRun) << plan.refusal;
  EXPECT_TRUE(HoldsPair(plan.argv, "-c:v", "h264_nvenc"));
  EXPECT_TRUE(HoldsPair(plan.argv, "-vf", "scale_cuda=format=nv12"));
}

TEST(Plan, PrintsEachKindAsJson) {
  const PlanDevice& ada = FixtureDeviceNamed("ada-geforce-rtx4090");
  EXPECT_EQ(PlanJson(PlanLine("-encoders", ada, std::nullopt)),
            R"({"pass":["-encoders"],"job_form":"listing"})");
  EXPECT_EQ(PlanJson(PlanLine(kWebVideo, FixtureDeviceNamed("h200"), TestInputNamed("h264").facts)),
            R"({"refuse":"pci-0000-00-06-0 (nvidia) does not encode H.264: it states neither )"
            R"(encodeH264 nor encodeH264LowPower","job_form":"web-video"})");
  const std::string run = PlanJson(PlanLine(kWebVideo, ada, TestInputNamed("h264").facts));
  EXPECT_TRUE(run.starts_with(R"({"run":["-hwaccel","cuda",)")) << run;
  EXPECT_NE(run.find(R"("encoder":"h264_nvenc","encode_sessions":1,"hardware_decode":true,)"
                     R"("job_form":"web-video","output_height":720,"output_fps":30.0})"),
            std::string::npos)
      << run;
}

}  // namespace
}  // namespace mc::worker
