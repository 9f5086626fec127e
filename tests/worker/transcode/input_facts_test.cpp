#include "worker/transcode/input_facts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "test_media.h"

namespace mc::worker {
namespace {

using testing::TestInputNamed;

// Each input made by Debian's ffmpeg, as Debian's ffprobe describes it.
TEST(InputFacts, ReadsRealFfprobeOfAnH264File) {
  const InputFacts& facts = TestInputNamed("h264").facts;
  EXPECT_TRUE(facts.has_video);
  EXPECT_EQ(facts.video_codec, "h264");
  EXPECT_EQ(facts.pix_fmt, "yuv420p");
  EXPECT_EQ(facts.bit_depth, 8);
  EXPECT_EQ(facts.width, 1280);
  EXPECT_EQ(facts.height, 720);
  EXPECT_DOUBLE_EQ(facts.fps, 30);
  EXPECT_TRUE(facts.has_audio);
  EXPECT_EQ(facts.audio_codec, "aac");
  EXPECT_FALSE(facts.still_image);
}

TEST(InputFacts, ReadsTheDepthOfTenBitHevcAndVp9) {
  const InputFacts& hevc = TestInputNamed("hevc10").facts;
  EXPECT_EQ(hevc.video_codec, "hevc");
  EXPECT_EQ(hevc.bit_depth, 10);
  EXPECT_EQ(hevc.video_profile, "Main 10");
  const InputFacts& vp9 = TestInputNamed("vp9-profile2").facts;
  EXPECT_EQ(vp9.video_codec, "vp9");
  EXPECT_EQ(vp9.bit_depth, 10);
  EXPECT_EQ(vp9.video_profile, "Profile 2");
  EXPECT_EQ(TestInputNamed("vp9").facts.bit_depth, 8);
  EXPECT_DOUBLE_EQ(TestInputNamed("vp9").facts.fps, 25);
}

TEST(InputFacts, KnowsAPngForAStillImageAndAnM4aForAudioAlone) {
  const InputFacts& png = TestInputNamed("png").facts;
  EXPECT_TRUE(png.has_video);
  EXPECT_TRUE(png.still_image);
  EXPECT_EQ(png.video_codec, "png");
  EXPECT_EQ(png.width, 641);
  EXPECT_FALSE(png.has_audio);
  const InputFacts& aac = TestInputNamed("aac").facts;
  EXPECT_FALSE(aac.has_video);
  EXPECT_TRUE(aac.has_audio);
  EXPECT_EQ(aac.audio_codec, "aac");
}

TEST(InputFacts, PrefersTheVideoStreamToACoverPicture) {
  Result<InputFacts> facts = ParseInputFacts(R"({"streams":[
      {"codec_type":"video","codec_name":"mjpeg","disposition":{"attached_pic":1}},
      {"codec_type":"video","codec_name":"h264","pix_fmt":"yuv420p","r_frame_rate":"25/1",
       "avg_frame_rate":"0/0","width":320,"height":240}]})");
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->video_codec, "h264");
  EXPECT_DOUBLE_EQ(facts->fps, 25);
  EXPECT_FALSE(facts->still_image);
}

TEST(InputFacts, TellsTheDepthOfEachPixelFormat) {
  EXPECT_EQ(BitDepthOfPixelFormat("yuv420p"), 8);
  EXPECT_EQ(BitDepthOfPixelFormat("yuvj420p"), 8);
  EXPECT_EQ(BitDepthOfPixelFormat("nv12"), 8);
  EXPECT_EQ(BitDepthOfPixelFormat("yuv420p10le"), 10);
  EXPECT_EQ(BitDepthOfPixelFormat("yuv444p12be"), 12);
  EXPECT_EQ(BitDepthOfPixelFormat("p010le"), 10);
  EXPECT_EQ(BitDepthOfPixelFormat(""), 0);
  EXPECT_TRUE(IsChroma420("yuv420p10le"));
  EXPECT_FALSE(IsChroma420("yuv422p"));
}

struct BadFacts {
  const char* json;
  const char* error;
};

TEST(InputFacts, AStatedSizeWhosePixelCountOverflowsAnIntIsTakenSideBySideWithinTheBound) {
  // What ffprobe prints for a Matroska stream no decoder opens: the container's 65535x65535.
  Result<InputFacts> facts = ParseInputFacts(
      R"({"streams":[{"codec_type":"video","width":65535,"height":65535,"avg_frame_rate":"5/1"}],
          "format":{"format_name":"matroska,webm","duration":"1.000000"}})");
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->width, 65535);
  EXPECT_EQ(facts->height, 65535);
  EXPECT_EQ(facts->video_codec, "");
  // Its pixel count is past an int's, and a 64-bit count holds it.
  EXPECT_GT(static_cast<std::int64_t>(facts->width) * facts->height,
            std::numeric_limits<int>::max());
}

TEST(InputFacts, ASideOfTwoToTheTwentiethIsTheLargestTaken) {
  Result<InputFacts> facts =
      ParseInputFacts(R"({"streams":[{"codec_type":"video","width":1048576,"height":1048576}]})");
  ASSERT_TRUE(facts) << facts.error_message();
  EXPECT_EQ(facts->width, kMaxPictureSide);
}

class InputFactsBadInput : public ::testing::TestWithParam<BadFacts> {};

TEST_P(InputFactsBadInput, NamesThePlaceOfTheError) {
  Result<InputFacts> facts = ParseInputFacts(GetParam().json);
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error_message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InputFactsBadInput,
    ::testing::Values(
        BadFacts{"not json", "ffprobe's answer is not valid JSON"},
        BadFacts{"[]", "ffprobe: expected an object"}, BadFacts{"{}", "ffprobe.streams: missing"},
        BadFacts{R"({"streams":{}})", "streams: expected an array"},
        BadFacts{R"({"streams":[7]})", "streams[0]: expected an object"},
        BadFacts{R"({"streams":[{"codec_type":"video","width":"wide"}]})",
                 "streams[0].width: expected an integer"},
        BadFacts{R"({"streams":[{"codec_type":"audio"},{"codec_type":"video","height":-1}]})",
                 "streams[1].height: -1 pixels is not a picture's side (0 to 1048576)"},
        BadFacts{R"({"streams":[{"codec_type":"video","width":1048577,"height":1}]})",
                 "streams[0].width: 1048577 pixels is not a picture's side (0 to 1048576)"},
        BadFacts{R"({"streams":[{"codec_type":"video","width":1,"height":18446744073709551615}]})",
                 "streams[0].height: 9223372036854775807 pixels is not a picture's side (0 to "
                 "1048576)"},
        BadFacts{R"({"streams":[{"codec_type":"video","avg_frame_rate":"30/x"}]})",
                 "streams[0].avg_frame_rate: expected a rate such as \"30/1\", got \"30/x\""},
        BadFacts{R"({"streams":[{"codec_type":"audio","codec_name":5}]})",
                 "streams[0].codec_name: expected a string"},
        BadFacts{R"({"streams":[],"format":{"format_name":1}})",
                 "format.format_name: expected a string"}));

}  // namespace
}  // namespace mc::worker
