// The fake VA driver as a GPU that really encodes.
// It runs under Debian's real libva and ffmpeg.
// Only the driver and the kernel's view (render nodes, /proc's DRM fdinfo) are faked.
// The programs run through tests/fakeva/run-on, as a person would run them.
// The expectations come from what the recorded dumps list and what ffmpeg was asked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "fakenv_state.h"
#include "support/temp_dir.h"
#include "test_process.h"

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;
using fakenv::testing::Finished;

std::string Dump(const std::string& name) { return std::string(FAKEVA_DUMPS_DIR) + "/" + name; }

constexpr const char* kIntelDump = "intel-ihd-dg1-gen12-24.1.txt";
constexpr const char* kAmdDump = "amd-radeonsi-navi22-rx6750xt.txt";
constexpr const char* kLowPowerOnlyDump = "intel-ihd-cometlake-uhd630-free-21.1.txt";
constexpr const char* kAmdWithoutCodecsDump = "amd-radeonsi-navi22-rx6700xt-no-codecs.txt";

// Number finds the first unsigned number after `key` in `text`; nullopt without one.
std::optional<double> Number(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream rest(text.substr(at + key.size()));
  double value = 0;
  if (!(rest >> value)) return std::nullopt;
  return value;
}

class FakevaFfmpeg : public ::testing::Test {
 protected:
  // RunOn runs argv on the machine of one dump through run-on.
  // It uses the test's own state directory, so the engines' samples stay to be read.
  Finished RunOn(const std::string& dump, const std::vector<std::string>& argv) {
    std::vector<std::string> command = {FAKEVA_RUN_ON, Dump(dump), "--"};
    command.insert(command.end(), argv.begin(), argv.end());
    return fakenv::testing::Run(command,
                                {"MEDIA_CAP_BUILD=" + std::string(MEDIA_CAP_BUILD_DIR),
                                 "FAKEVA_STATE_DIR=" + (dir_.path() / "state").string()},
                                dir_.path().string());
  }

  // Ffmpeg runs Debian's ffmpeg on the dump's machine.
  // It opens the render node as on a real one.
  Finished Ffmpeg(const std::string& dump, const std::vector<std::string>& arguments) {
    std::vector<std::string> argv = {"ffmpeg", "-hide_banner",  "-nostdin",
                                     "-y",     "-vaapi_device", "/dev/dri/renderD128"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return RunOn(dump, argv);
  }

  // Encode encodes two seconds of a test picture into `output`.
  // It uses `encoder` and its options.
  Finished Encode(const std::string& dump, const std::string& encoder,
                  const std::vector<std::string>& options, const std::string& output) {
    std::vector<std::string> arguments = {"-f",   "lavfi", "-i",  "testsrc2=size=1280x720:rate=30",
                                          "-t",   "2",     "-vf", "format=nv12,hwupload",
                                          "-c:v", encoder};
    arguments.insert(arguments.end(), options.begin(), options.end());
    arguments.push_back(output);
    return Ffmpeg(dump, arguments);
  }

  // FdinfoWhileEncoding runs an encode and, meanwhile, prints from the fake /proc:
  //  - where its descriptors lead;
  //  - the fdinfo of its render node;
  //  - its stat.
  // The product's evidence sampler reads them so too.
  Finished FdinfoWhileEncoding(const std::string& dump) {
    const std::string script =
        "ffmpeg -v error -nostdin -vaapi_device /dev/dri/renderD128 -re -f lavfi -i "
        "testsrc2=size=640x360:rate=30 -t 3 -vf format=nv12,hwupload -c:v h264_vaapi -f null - "
        "& pid=$!; sleep 1.5; readlink \"$MEDIA_CAP_PROC_ROOT/$pid/fd/\"*; "
        "cat \"$MEDIA_CAP_PROC_ROOT/$pid/fdinfo/\"*; cat \"$MEDIA_CAP_PROC_ROOT/$pid/stat\"; "
        "wait $pid";
    return RunOn(dump, {"sh", "-c", script});
  }

  std::string Output(const std::string& name) const { return (dir_.path() / name).string(); }

  // Probe gives ffprobe's facts of the first video stream, as "key=value|...".
  // They are codec_name, profile, width, height and bit_rate.
  // It is empty when ffprobe fails.
  std::string Probe(const std::string& file) {
    const Finished probed = fakenv::testing::Run(
        {"ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=codec_name,profile,width,height,bit_rate", "-of", "compact=p=0", file},
        {}, dir_.path().string());
    return probed.exit_code == 0 ? probed.out : "";
  }

  // PlaysClean decodes a file with the software decoders.
  // It says what went wrong, if anything.
  std::string PlaysClean(const std::string& file) {
    const Finished played = fakenv::testing::Run(
        {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i", file, "-f", "null", "-"}, {},
        dir_.path().string());
    if (played.exit_code != 0)
      return "exit " + std::to_string(played.exit_code) + ": " + played.err;
    return played.err;
  }

  mc::testing::TempDir dir_;
};

TEST_F(FakevaFfmpeg, UploadThenDownloadGivesBackEveryPixel) {
  const std::vector<std::string> source = {"-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30",
                                           "-t", "2"};
  std::vector<std::string> round_trip = source;
  round_trip.insert(round_trip.end(),
                    {"-init_hw_device", "vaapi=va:/dev/dri/renderD128", "-filter_hw_device", "va",
                     "-vf", "format=nv12,hwupload,hwdownload,format=nv12", "-f", "framemd5", "-"});
  round_trip.insert(round_trip.begin(), {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error"});
  const Finished through_gpu = RunOn(kIntelDump, round_trip);
  ASSERT_EQ(through_gpu.exit_code, 0) << through_gpu.err;

  std::vector<std::string> direct = {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error"};
  direct.insert(direct.end(), source.begin(), source.end());
  direct.insert(direct.end(), {"-vf", "format=nv12", "-f", "framemd5", "-"});
  const Finished on_cpu = fakenv::testing::Run(direct, {}, dir_.path().string());
  ASSERT_EQ(on_cpu.exit_code, 0) << on_cpu.err;
  EXPECT_NE(on_cpu.out.find("0,         59,"), std::string::npos) << on_cpu.out;
  EXPECT_EQ(through_gpu.out, on_cpu.out);
}

// scale_vaapi's pictures are the engine's bilinear resize.
// They are within the last bits of libswscale's bilinear one.
// Their time shows as video-enhance work of the render node.
TEST_F(FakevaFfmpeg, ScaleVaapiGivesPicturesCloseToASoftwareBilinearScale) {
  const Finished scaled =
      RunOn(kIntelDump, {"ffmpeg",
                         "-hide_banner",
                         "-nostdin",
                         "-v",
                         "error",
                         "-y",
                         "-vaapi_device",
                         "/dev/dri/renderD128",
                         "-f",
                         "lavfi",
                         "-i",
                         "testsrc2=size=1920x1080:rate=30",
                         "-t",
                         "1",
                         "-vf",
                         "format=nv12,hwupload,scale_vaapi=w=640:h=360,hwdownload,format=nv12",
                         "-c:v",
                         "rawvideo",
                         "-f",
                         "nut",
                         Output("scaled.nut")});
  ASSERT_EQ(scaled.exit_code, 0) << scaled.err;
  EXPECT_NE(Probe(Output("scaled.nut")).find("width=640|height=360"), std::string::npos);
  const Finished compared = fakenv::testing::Run(
      {"ffmpeg", "-hide_banner", "-nostdin", "-i", Output("scaled.nut"), "-f", "lavfi", "-i",
       "testsrc2=size=1920x1080:rate=30", "-t", "1", "-lavfi",
       "[1:v]scale=640:360:flags=bilinear,format=nv12[reference];[0:v][reference]psnr", "-f",
       "null", "-"},
      {}, dir_.path().string());
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  const std::optional<double> psnr = Number(compared.err, "average:");
  ASSERT_TRUE(psnr) << compared.err;
  EXPECT_GT(*psnr, 30.0) << compared.err;
}

TEST_F(FakevaFfmpeg, H264VaapiAtTwoMegabitsWritesAnMp4ThatFfprobeReadsAndSoftwarePlays) {
  const Finished encoded = Encode(kIntelDump, "h264_vaapi", {"-b:v", "2M"}, Output("out.mp4"));
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  const std::string probed = Probe(Output("out.mp4"));
  EXPECT_NE(probed.find("codec_name=h264|profile=High|width=1280|height=720"), std::string::npos)
      << probed;
  const std::optional<double> bitrate = Number(probed, "bit_rate=");
  ASSERT_TRUE(bitrate) << probed;
  EXPECT_GT(*bitrate, 1.5e6);
  EXPECT_LT(*bitrate, 2.5e6);
  EXPECT_EQ(PlaysClean(Output("out.mp4")), "");
}

TEST_F(FakevaFfmpeg, HevcVaapiWritesAnMp4ThatSoftwarePlays) {
  const Finished encoded = Encode(kAmdDump, "hevc_vaapi", {"-b:v", "1M"}, Output("out.mp4"));
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  EXPECT_NE(Probe(Output("out.mp4")).find("codec_name=hevc|profile=Main|width=1280|height=720"),
            std::string::npos);
  EXPECT_EQ(PlaysClean(Output("out.mp4")), "");
}

// Decode writes each picture into its surface in decode order.
// H.264's and HEVC's come from parameter sets the fake rebuilds.
// The pictures must be the software decoder's, bit for bit, through:
//  - B-pictures and pyramids;
//  - weighted prediction;
//  - custom scaling lists (H.264);
//  - several slices, and wavefronts (HEVC);
//  - CAVLC;
//  - a size that is no multiple of 16.
// VP9 frames come whole, hidden alternate reference frames among them.
TEST_F(FakevaFfmpeg, H264HevcAndVp9DecodesGiveTheSoftwareDecodersPicturesExactly) {
  const std::vector<std::vector<std::string>> encodes = {
      {"-c:v", "libx264", "-preset", "slow", "-bf", "3", "-refs", "4", "-x264-params",
       "b-pyramid=normal:weightb=1:cqm=jvt"},
      {"-c:v", "libx264", "-preset", "fast", "-slices", "4", "-vf", "crop=638:358"},
      {"-c:v", "libx264", "-preset", "ultrafast"},
      {"-c:v", "libx265", "-preset", "medium", "-x265-params",
       "log-level=error:bframes=4:b-pyramid=1:weightp=1:weightb=1:ref=3"},
      {"-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:slices=3", "-vf",
       "crop=630:350"},
      {"-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "5", "-auto-alt-ref", "1",
       "-lag-in-frames", "16", "-b:v", "500k", "-f", "webm"}};
  for (std::size_t i = 0; i < encodes.size(); ++i) {
    const std::string clip = Output("clip" + std::to_string(i) + ".mp4");
    std::vector<std::string> make = {"ffmpeg",   "-v",   "error",
                                     "-nostdin", "-y",   "-f",
                                     "lavfi",    "-i",   "testsrc2=size=640x360:rate=30",
                                     "-t",       "2",    "-pix_fmt",
                                     "yuv420p",  "-c:v", "libx264"};
    make.insert(make.end(), encodes[i].begin(), encodes[i].end());
    make.push_back(clip);
    ASSERT_EQ(fakenv::testing::Run(make, {}, dir_.path().string()).exit_code, 0);

    const Finished on_gpu = RunOn(
        kAmdDump, {"ffmpeg", "-v", "error", "-nostdin", "-hwaccel", "vaapi", "-hwaccel_device",
                   "/dev/dri/renderD128", "-hwaccel_output_format", "vaapi", "-i", clip, "-vf",
                   "hwdownload,format=nv12", "-f", "framemd5", "-"});
    ASSERT_EQ(on_gpu.exit_code, 0) << on_gpu.err;
    const Finished on_cpu = fakenv::testing::Run({"ffmpeg", "-v", "error", "-nostdin", "-i", clip,
                                                  "-vf", "format=nv12", "-f", "framemd5", "-"},
                                                 {}, dir_.path().string());
    ASSERT_EQ(on_cpu.exit_code, 0) << on_cpu.err;
    EXPECT_NE(on_cpu.out.find("0,         59,"), std::string::npos) << on_cpu.out;
    EXPECT_EQ(on_gpu.out, on_cpu.out) << "encode " << i;
  }
}

// What the fake cannot rebuild or decode is refused with the driver's reason:
//  - interlaced H.264, picture by picture;
//  - HEVC Main 10, at vaCreateContext, where ffmpeg falls back to the CPU.
TEST_F(FakevaFfmpeg, InterlacedH264AndHevcMain10DecodesAreRefusedWithTheFakesReason) {
  ASSERT_EQ(fakenv::testing::Run({"ffmpeg",
                                  "-v",
                                  "error",
                                  "-nostdin",
                                  "-y",
                                  "-f",
                                  "lavfi",
                                  "-i",
                                  "testsrc2=size=640x360:rate=30",
                                  "-t",
                                  "1",
                                  "-vf",
                                  "tinterlace=4",
                                  "-c:v",
                                  "libx264",
                                  "-flags",
                                  "+ildct",
                                  "-pix_fmt",
                                  "yuv420p",
                                  Output("interlaced.mp4")},
                                 {}, dir_.path().string())
                .exit_code,
            0);
  const Finished interlaced =
      RunOn(kIntelDump, {"ffmpeg", "-nostdin", "-hwaccel", "vaapi", "-hwaccel_device",
                         "/dev/dri/renderD128", "-i", Output("interlaced.mp4"), "-f", "null", "-"});
  EXPECT_NE(interlaced.err.find("fakeva: interlaced H.264 (field or MBAFF pictures) is not "
                                "decoded by the fake"),
            std::string::npos)
      << interlaced.err;

  ASSERT_EQ(
      fakenv::testing::Run({"ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                            "testsrc2=size=640x360:rate=30", "-t", "1", "-pix_fmt", "yuv420p10le",
                            "-c:v", "libx265", "-preset", "ultrafast", Output("hevc.mp4")},
                           {}, dir_.path().string())
          .exit_code,
      0);
  const Finished hevc =
      RunOn(kIntelDump, {"ffmpeg", "-nostdin", "-hwaccel", "vaapi", "-hwaccel_device",
                         "/dev/dri/renderD128", "-i", Output("hevc.mp4"), "-f", "null", "-"});
  EXPECT_EQ(hevc.exit_code, 0) << hevc.err;
  EXPECT_NE(hevc.err.find("fakeva: the fake decodes H.264, HEVC Main and VP9 profile 0 only, not "
                          "VAProfileHEVCMain10"),
            std::string::npos)
      << hevc.err;
  EXPECT_NE(hevc.err.find("Failed setup for format vaapi"), std::string::npos) << hevc.err;
}

// Some dumps state no H.264 decode: a Mesa build without its video codecs.
// On such a device ffmpeg falls back to the CPU without a word.
// An evidence gate must catch that silent fallback.
TEST_F(FakevaFfmpeg, OnADeviceThatStatesNoH264DecodeAnH264DecodeFallsBackToTheCpu) {
  ASSERT_EQ(fakenv::testing::Run({"ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                  "testsrc2=size=320x240:rate=30", "-t", "1", "-c:v", "libx264",
                                  "-pix_fmt", "yuv420p", Output("clip.mp4")},
                                 {}, dir_.path().string())
                .exit_code,
            0);
  const Finished decoded =
      RunOn("amd-radeonsi-navi22-rx6700xt-no-codecs.txt",
            {"ffmpeg", "-nostdin", "-hwaccel", "vaapi", "-hwaccel_device", "/dev/dri/renderD128",
             "-i", Output("clip.mp4"), "-f", "null", "-"});
  EXPECT_EQ(decoded.exit_code, 0) << decoded.err;
  EXPECT_NE(decoded.err.find("Failed setup for format vaapi"), std::string::npos) << decoded.err;
}

// A `vainfo -a` dump states HEVC Main10 encode with YUV420_10 surfaces.
// So P010 pictures encode to a 10-bit stream.
// A plain dump states YUV420 for every pair.
// So ffmpeg finds no 10-bit surfaces for the same encode, and refuses it.
TEST_F(FakevaFfmpeg, HevcMain10EncodesTenBitsWhereTheDumpStatesTenBitSurfacesOnly) {
  const std::vector<std::string> main10 = {"-profile:v", "main10", "-b:v", "2M"};
  std::vector<std::string> arguments = {
      "-f",   "lavfi",     "-i",  "testsrc2=size=1280x720:rate=30",
      "-t",   "1",         "-vf", "format=p010,hwupload",
      "-c:v", "hevc_vaapi"};
  arguments.insert(arguments.end(), main10.begin(), main10.end());
  arguments.push_back(Output("main10.mp4"));
  const Finished encoded = Ffmpeg("amd-radeonsi-navi22-rx6750xt-vainfo-a.txt", arguments);
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  EXPECT_NE(Probe(Output("main10.mp4")).find("codec_name=hevc|profile=Main 10"), std::string::npos)
      << Probe(Output("main10.mp4"));
  EXPECT_EQ(PlaysClean(Output("main10.mp4")), "");

  arguments.back() = Output("refused.mp4");
  const Finished refused = Ffmpeg(kIntelDump, arguments);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("YUV420_10 not supported"), std::string::npos) << refused.err;
}

// Positions lists which pictures in ffprobe's csv output have `yes`.
// Each picture is a line whose first field is `yes` or `no`.
// Other lines, such as a frame's side data, are no pictures.
std::vector<int> Positions(const std::string& csv, const std::string& yes, const std::string& no) {
  std::istringstream lines(csv);
  std::string line;
  std::vector<int> found;
  int index = 0;
  while (std::getline(lines, line)) {
    const std::string field = line.substr(0, line.find(','));
    if (field == yes) found.push_back(index);
    if (field == yes || field == no) ++index;
  }
  return found;
}

// ffmpeg decides the GOP and asks for each IDR picture.
// The engine's stream must have its IDR pictures exactly there.
// The packets ffmpeg flagged as key frames say where.
TEST_F(FakevaFfmpeg, TheStreamsIdrPicturesAreWhereFfmpegsGopPutThem) {
  const Finished encoded =
      Encode(kIntelDump, "h264_vaapi", {"-qp", "28", "-g", "10"}, Output("gop.mp4"));
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  const auto show = [&](const std::string& entries) {
    return fakenv::testing::Run({"ffprobe", "-v", "error", "-select_streams", "v:0",
                                 "-show_entries", entries, "-of", "csv=p=0", Output("gop.mp4")},
                                {}, dir_.path().string());
  };
  const Finished packets = show("packet=flags");
  const Finished frames = show("frame=key_frame");
  ASSERT_EQ(packets.exit_code, 0) << packets.err;
  ASSERT_EQ(frames.exit_code, 0) << frames.err;
  const std::vector<int> asked = Positions(packets.out, "K_", "__");
  EXPECT_EQ(asked, (std::vector<int>{0, 10, 20, 30, 40, 50})) << packets.out;
  EXPECT_EQ(Positions(frames.out, "1", "0"), asked) << frames.out;
}

TEST_F(FakevaFfmpeg, AnHlsFmp4OfH264VaapiAsPeerTubesRunnerWritesItPlaysBack) {
  fs::create_directories(dir_.path() / "hls");
  const Finished encoded =
      Encode(kIntelDump, "h264_vaapi",
             {"-rc_mode", "VBR", "-b:v", "1500k", "-g", "60", "-f", "hls", "-hls_time", "1",
              "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename",
              "init.mp4"},
             Output("hls/playlist.m3u8"));
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  EXPECT_TRUE(fs::exists(dir_.path() / "hls" / "init.mp4"));
  EXPECT_NE(Probe(Output("hls/playlist.m3u8")).find("codec_name=h264"), std::string::npos);
  EXPECT_EQ(PlaysClean(Output("hls/playlist.m3u8")), "");
}

TEST_F(FakevaFfmpeg, ADumpListingOnlyTheLowPowerEntrypointEncodesWithLowPower) {
  const Finished encoded =
      Encode(kLowPowerOnlyDump, "h264_vaapi", {"-low_power", "1", "-b:v", "2M"}, Output("lp.mp4"));
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  EXPECT_EQ(PlaysClean(Output("lp.mp4")), "");
}

TEST_F(FakevaFfmpeg, AnEncoderTheDumpDoesNotListIsRefusedAndNothingIsWritten) {
  const Finished encoded = Encode(kAmdWithoutCodecsDump, "h264_vaapi", {}, Output("none.mp4"));
  EXPECT_NE(encoded.exit_code, 0);
  EXPECT_NE(encoded.err.find("profile"), std::string::npos) << encoded.err;
  EXPECT_EQ(Probe(Output("none.mp4")), "");
}

// A GPU that falls over mid-encode fails ffmpeg with the driver's own reason.
// It never gives a good-looking output.
// The engine is killed, as tests/fakenv's engine-dies-after fault does it.
TEST_F(FakevaFfmpeg, AnEngineThatDiesMidEncodeFailsFfmpegWithTheDriversReason) {
  setenv("FAKENV_FAULT", "engine-dies-after:10", 1);
  const Finished encoded = Encode(kIntelDump, "h264_vaapi", {}, Output("broken.mp4"));
  unsetenv("FAKENV_FAULT");
  EXPECT_NE(encoded.exit_code, 0);
  EXPECT_NE(encoded.err.find("fakeva: the engine is gone"), std::string::npos) << encoded.err;
}

// The engine codes in a process of its own, detached from ffmpeg's tree.
// A GPU, too, works apart from the CPU.
// ffmpeg's own CPU time (its -benchmark line) stays a small part of the engine's.
// The engine's time is its samples in the state directory.
TEST_F(FakevaFfmpeg, TheEngineNotFfmpegSpendsTheEncodesCpuTime) {
  const Finished encoded =
      Encode(kIntelDump, "h264_vaapi", {"-b:v", "2M", "-benchmark", "-f", "null"}, "-");
  ASSERT_EQ(encoded.exit_code, 0) << encoded.err;
  const std::optional<double> user = Number(encoded.out + encoded.err, "utime=");
  const std::optional<double> system = Number(encoded.out + encoded.err, "stime=");
  ASSERT_TRUE(user && system) << encoded.err;

  std::uint32_t engine_ms = 0;
  for (const fakenv::Sample& sample : fakenv::SamplesSince((dir_.path() / "state").string(), 0))
    engine_ms = std::max(engine_ms, sample.engine_cpu_ms);
  ASSERT_GT(engine_ms, 0u);
  const double ffmpeg_seconds = *user + *system;
  EXPECT_LT(ffmpeg_seconds, 0.5 * engine_ms / 1000.0)
      << "ffmpeg " << ffmpeg_seconds << " s, engine " << engine_ms << " ms";
}

TEST_F(FakevaFfmpeg, AnIntelEncodeShowsAsI915VideoEngineTimeInTheRenderNodesFdinfo) {
  const Finished shown = FdinfoWhileEncoding(kIntelDump);
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("/dev/dri/renderD128"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("drm-driver:\ti915"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("drm-client-id:"), std::string::npos) << shown.out;
  const std::optional<double> video = Number(shown.out, "drm-engine-video:");
  ASSERT_TRUE(video) << shown.out;
  EXPECT_GT(*video, 0);
  EXPECT_NE(shown.out.find("(ffmpeg)"), std::string::npos) << shown.out;
}

TEST_F(FakevaFfmpeg, AnAmdEncodeShowsAsAmdgpuEncodeTimeInTheRenderNodesFdinfo) {
  const Finished shown = FdinfoWhileEncoding(kAmdDump);
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("drm-driver:\tamdgpu"), std::string::npos) << shown.out;
  const std::optional<double> encode = Number(shown.out, "drm-engine-enc:");
  ASSERT_TRUE(encode) << shown.out;
  EXPECT_GT(*encode, 0);
  EXPECT_EQ(shown.out.find("drm-engine-video:"), std::string::npos) << shown.out;
}

}  // namespace
}  // namespace mc::fakeva
