// The fake GPU that really encodes, under Debian's real ffmpeg: only the NVIDIA driver
// is faked (the fakes on LD_LIBRARY_PATH, their engine process); ffmpeg, its NVENC and
// CUVID code and nv-codec-headers' loader are the real ones. The expectations are written
// from what the records' drivers state and from what ffmpeg was asked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engine_wire.h"
#include "fakenv_faults.h"
#include "fakenv_state.h"
#include "nvml_views.h"
#include "support/eventually.h"
#include "support/temp_dir.h"
#include "test_process.h"

namespace fakenv {
namespace {

namespace fs = std::filesystem;
using mc::testing::Eventually;
using nlohmann::json;
using testing::Finished;
using testing::Process;

std::string Record(const std::string& name) { return std::string(FAKENV_RECORDS_DIR) + "/" + name; }

std::vector<std::byte> ReadBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// Each look at the fake's state runs fakenv_smi, a process: five looks a second.
constexpr mc::testing::Polling kSmiPolling{.timeout = std::chrono::seconds(20),
                                           .every = std::chrono::milliseconds(200)};

// FakeGpu lays out one record's machine (fakenv_stage) and runs real programs on it with
// the environment run-on gives them.
class FakeGpu : public ::testing::Test {
 protected:
  void Stage(const std::string& record) {
    record_ = Record(record);
    machine_ = dir_.path() / "machine";
    const Finished staged =
        testing::Run({FAKENV_STAGE, record_, machine_.string()}, {}, dir_.path());
    ASSERT_EQ(staged.exit_code, 0) << staged.err;
  }

  std::vector<std::string> Environment(const std::string& fault = "") const {
    std::vector<std::string> env = {"LD_LIBRARY_PATH=" + (machine_ / "lib").string(),
                                    "FAKENV_RECORD=" + record_,
                                    "FAKENV_STATE_DIR=" + (machine_ / "state").string()};
    env.push_back("FAKENV_FAULT=" + fault);
    return env;
  }

  std::string Output(const std::string& name) const { return (dir_.path() / name).string(); }

  // Ffmpeg runs Debian's ffmpeg on the machine, quietly, overwriting its outputs.
  Finished Ffmpeg(std::vector<std::string> arguments, const std::string& fault = "") {
    return testing::Run(FfmpegArgv(std::move(arguments)), Environment(fault), dir_.path());
  }

  static std::vector<std::string> FfmpegArgv(std::vector<std::string> arguments) {
    std::vector<std::string> argv = {"ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return argv;
  }

  // Probe is ffprobe's view of a file's first video stream, its frames counted by decoding
  // them on the CPU: a stream that does not decode has no frames.
  json Probe(const std::string& file) {
    const Finished probed = testing::Run(
        {"ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
         "stream=codec_name,width,height,nb_read_frames", "-of", "json", file},
        {}, dir_.path());
    EXPECT_EQ(probed.exit_code, 0) << probed.err;
    const json parsed = json::parse(probed.out, nullptr, false);
    if (!parsed.is_object() || parsed["streams"].empty()) return json::object();
    return parsed["streams"][0];
  }

  // ExpectPlayable checks a file holds a stream of the codec, size and length asked for,
  // which Debian's ffmpeg decodes on the CPU without a single complaint.
  void ExpectPlayable(const std::string& file, const char* codec, int width, int height,
                      int frames) {
    const json stream = Probe(file);
    EXPECT_EQ(stream["codec_name"], codec) << file;
    EXPECT_EQ(stream["width"], width) << file;
    EXPECT_EQ(stream["height"], height) << file;
    EXPECT_EQ(stream["nb_read_frames"], std::to_string(frames)) << file;
    const Finished decoded =
        testing::Run(FfmpegArgv({"-xerror", "-i", file, "-f", "null", "-"}), {}, dir_.path());
    EXPECT_EQ(decoded.exit_code, 0) << decoded.err;
    EXPECT_EQ(decoded.err, "") << file;
  }

  // Smi is what the NVML fake reports now, as fakenv_smi prints it.
  json Smi() {
    const Finished smi = testing::Run({FAKENV_SMI}, Environment(), dir_.path());
    EXPECT_EQ(smi.exit_code, 0) << smi.out << smi.err;
    return json::parse(smi.out, nullptr, false);
  }

  static bool HasSample(const json& smi, pid_t pid, const char* engine) {
    for (const json& sample : smi["processSamples"]) {
      if (sample["pid"] == pid && sample[engine].get<int>() > 0) return true;
    }
    return false;
  }

  static const json* SessionOf(const json& smi, pid_t pid) {
    for (const json& session : smi["sessions"]) {
      if (session["pid"] == pid) return &session;
    }
    return nullptr;
  }

  // EngineCpuSeconds adds up the CPU time every engine of the machine reported last.
  double EngineCpuSeconds() {
    std::map<std::uint32_t, std::uint32_t> last;
    for (const Sample& sample : SamplesSince((machine_ / "state").string(), 0)) {
      last[sample.client_id] = std::max(last[sample.client_id], sample.engine_cpu_ms);
    }
    double total = 0;
    for (const auto& [client, ms] : last) total += ms / 1000.0;
    return total;
  }

  // An H.264 stream made on the CPU with libx264, B-pictures included, 640x360, 60 pictures.
  std::string CpuEncodedH264() {
    const std::string file = Output("cpu-h264.mp4");
    const Finished made = testing::Run(
        FfmpegArgv({"-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "2", "-c:v",
                    "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", file}),
        {}, dir_.path());
    EXPECT_EQ(made.exit_code, 0) << made.err;
    return file;
  }

  mc::testing::TempDir dir_;
  std::string record_;
  fs::path machine_;
};

TEST_F(FakeGpu, TheAdaRecordEncodesH264IntoAPlayableStreamOfTheSizeAndLengthAskedFor) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "1",
                               "-c:v", "h264_nvenc", "-gpu", "0", Output("h264.mp4")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ExpectPlayable(Output("h264.mp4"), "h264", 1280, 720, 30);
}

TEST_F(FakeGpu, TheAdaRecordEncodesHevcIntoAPlayableStreamOfTheSizeAndLengthAskedFor) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "2",
                               "-c:v", "hevc_nvenc", "-gpu", "0", Output("hevc.mp4")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ExpectPlayable(Output("hevc.mp4"), "hevc", 640, 360, 50);
}

TEST_F(FakeGpu, FfmpegItselfSpendsFarLessCpuThanTheEngineThatCodedItsPictures) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "3",
                               "-c:v", "h264_nvenc", Output("cpu.mp4")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const double engine = EngineCpuSeconds();
  std::printf("ffmpeg's own CPU time %.3f s, the engine's %.3f s\n", run.cpu_seconds, engine);
  EXPECT_GT(run.cpu_seconds, 0);
  EXPECT_GT(engine, 3 * run.cpu_seconds);
}

TEST_F(FakeGpu, WhileFfmpegEncodesNvmlNamesItsPidWithEncoderWorkAndListsItsSession) {
  Stage("ada-geforce-rtx4090.json");
  const json idle = Smi();
  ASSERT_TRUE(idle.is_object());
  EXPECT_TRUE(idle["sessions"].empty());
  EXPECT_EQ(idle["memory"]["total"], 24564ull << 20);
  EXPECT_EQ(idle["memory"]["free"], idle["memory"]["total"]);
  EXPECT_EQ(idle["driverVersion"], "570.133.07");
  Process ffmpeg(FfmpegArgv({"-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "4",
                             "-c:v", "h264_nvenc", Output("watched.mp4")}),
                 Environment(), dir_.path());
  json seen;
  // The session's frame rate counts the pictures of the last second: the first samples of an
  // engine still starting (slow under the sanitizers) may have none yet.
  EXPECT_TRUE(Eventually(
      [&] {
        seen = Smi();
        const json* session = SessionOf(seen, ffmpeg.pid());
        return session && (*session)["averageFps"].get<int>() > 0 &&
               HasSample(seen, ffmpeg.pid(), "encUtil");
      },
      kSmiPolling))
      << seen.dump();
  if (const json* session = SessionOf(seen, ffmpeg.pid())) {
    EXPECT_EQ((*session)["codec"], 0);  // NVML_ENCODER_QUERY_H264
    EXPECT_EQ((*session)["width"], 640);
    EXPECT_EQ((*session)["height"], 360);
    EXPECT_GT((*session)["averageFps"].get<int>(), 0);
  }
  EXPECT_LT(seen["memory"]["free"].get<std::uint64_t>(),
            idle["memory"]["free"].get<std::uint64_t>());
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  const json after = Smi();
  EXPECT_TRUE(after["sessions"].empty()) << after.dump();
  EXPECT_EQ(after["memory"]["free"], idle["memory"]["free"]);
}

TEST_F(FakeGpu, EightParallelEncodesFitTheAdaCapAndTheNinthIsRefusedAsOutOfMemory) {
  Stage("ada-geforce-rtx4090.json");
  std::vector<std::unique_ptr<Process>> encodes;
  for (int i = 0; i < 8; ++i) {
    encodes.push_back(std::make_unique<Process>(
        FfmpegArgv({"-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15", "-t", "8", "-c:v",
                    "h264_nvenc", Output("parallel-" + std::to_string(i) + ".mp4")}),
        Environment(), dir_.path()));
  }
  json seen;
  ASSERT_TRUE(Eventually(
      [&] {
        seen = Smi();
        return seen["sessions"].size() == 8;
      },
      {.timeout = std::chrono::seconds(60), .every = kSmiPolling.every}))
      << seen.dump();
  const Finished ninth = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15", "-t", "1",
                                 "-c:v", "h264_nvenc", Output("ninth.mp4")});
  EXPECT_FALSE(ninth.timed_out);
  EXPECT_NE(ninth.exit_code, 0);
  EXPECT_NE(ninth.err.find("OpenEncodeSessionEx failed: out of memory (10)"), std::string::npos)
      << ninth.err;
  for (std::size_t i = 0; i < encodes.size(); ++i) {
    const Finished done = encodes[i]->Wait();
    EXPECT_EQ(done.exit_code, 0) << done.err;
    EXPECT_EQ(Probe(Output("parallel-" + std::to_string(i) + ".mp4"))["nb_read_frames"], "120");
  }
}

TEST_F(FakeGpu, TheH200RefusesToEncodeWithUnsupportedDevice) {
  Stage("h200.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "1",
                               "-c:v", "h264_nvenc", "-gpu", "0", Output("h200.mp4")});
  EXPECT_FALSE(run.timed_out);
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("OpenEncodeSessionEx failed: unsupported device (2)"), std::string::npos)
      << run.err;
  EXPECT_TRUE(Smi()["sessions"].empty());
}

TEST_F(FakeGpu, H264CuvidDecodesTheSamePicturesAsTheCpuAndNvmlShowsDecoderWork) {
  Stage("ada-geforce-rtx4090.json");
  const std::string input = CpuEncodedH264();
  const Finished cpu = testing::Run(
      FfmpegArgv({"-i", input, "-f", "rawvideo", "-pix_fmt", "nv12", Output("cpu.nv12")}), {},
      dir_.path());
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  Process cuvid(FfmpegArgv({"-c:v", "h264_cuvid", "-i", input, "-f", "rawvideo", "-pix_fmt", "nv12",
                            Output("cuvid.nv12")}),
                Environment(), dir_.path());
  const pid_t pid = cuvid.pid();
  const Finished decoded = cuvid.Wait();
  ASSERT_EQ(decoded.exit_code, 0) << decoded.err;
  const std::vector<std::byte> reference = ReadBytes(Output("cpu.nv12"));
  EXPECT_EQ(reference.size(), 60u * 640 * 360 * 3 / 2);
  EXPECT_TRUE(ReadBytes(Output("cuvid.nv12")) == reference);
  const json smi = Smi();
  EXPECT_TRUE(HasSample(smi, pid, "decUtil")) << smi.dump();
  EXPECT_FALSE(HasSample(smi, pid, "encUtil")) << smi.dump();
}

TEST_F(FakeGpu, AFullGpuPipelineDecodesWithCuvidScalesWithScaleCudaAndEncodesWithNvenc) {
  Stage("ada-geforce-rtx4090.json");
  const std::string input = CpuEncodedH264();
  Process pipeline(FfmpegArgv({"-hwaccel", "cuda", "-hwaccel_output_format", "cuda", "-c:v",
                               "h264_cuvid", "-i", input, "-vf", "scale_cuda=320:180", "-c:v",
                               "h264_nvenc", Output("pipeline.mp4")}),
                   Environment(), dir_.path());
  const pid_t pid = pipeline.pid();
  const Finished run = pipeline.Wait();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ExpectPlayable(Output("pipeline.mp4"), "h264", 320, 180, 60);
  const json smi = Smi();
  EXPECT_TRUE(HasSample(smi, pid, "decUtil")) << smi.dump();
  EXPECT_TRUE(HasSample(smi, pid, "encUtil")) << smi.dump();
}

TEST_F(FakeGpu, PicturesUploadedToAnInitHwDeviceAreEncodedFromCudaMemory) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run =
      Ffmpeg({"-init_hw_device", "cuda=cu:0", "-filter_hw_device", "cu", "-f", "lavfi", "-i",
              "testsrc2=size=640x360:rate=30", "-t", "1", "-vf", "format=nv12,hwupload", "-c:v",
              "h264_nvenc", Output("uploaded.mp4")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ExpectPlayable(Output("uploaded.mp4"), "h264", 640, 360, 30);
}

TEST_F(FakeGpu, HwaccelCudaFallsBackToCpuDecodingAndLeavesNoDecoderWork) {
  Stage("ada-geforce-rtx4090.json");
  const std::string input = CpuEncodedH264();
  Process fallback(FfmpegArgv({"-hwaccel", "cuda", "-i", input, "-f", "null", "-"}), Environment(),
                   dir_.path());
  const pid_t pid = fallback.pid();
  const Finished run = fallback.Wait();
  // As with a real driver that refuses the hwaccel: ffmpeg says so, decodes on the CPU, and
  // exits 0 all the same.
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("Failed setup for format cuda"), std::string::npos) << run.err;
  EXPECT_FALSE(HasSample(Smi(), pid, "decUtil"));
}

TEST_F(FakeGpu, AnEncodeThatFailsMidJobEndsFfmpegWithNvencsGenericError) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                               "-c:v", "h264_nvenc", Output("failed.mp4")},
                              "encode-fails-after:10");
  EXPECT_FALSE(run.timed_out);
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(
      run.err.find("EncodePicture failed!: generic error (20): fakenv: the GPU failed the encode"),
      std::string::npos)
      << run.err;
}

TEST_F(FakeGpu, AnEngineThatDiesMidJobEndsFfmpegWithDeviceDoesNotExist) {
  Stage("ada-geforce-rtx4090.json");
  const Finished run = Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                               "-c:v", "h264_nvenc", Output("died.mp4")},
                              "engine-dies-after:5");
  EXPECT_FALSE(run.timed_out);
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(
      run.err.find("EncodePicture failed!: device does not exist (5): fakenv: the engine is gone"),
      std::string::npos)
      << run.err;
  // The session of a job whose engine died is closed with the job.
  EXPECT_TRUE(Smi()["sessions"].empty());
}

TEST_F(FakeGpu, AnEngineThatDiesMidDecodeEndsH264Cuvid) {
  Stage("ada-geforce-rtx4090.json");
  const std::string input = CpuEncodedH264();
  const Finished run = Ffmpeg({"-c:v", "h264_cuvid", "-i", input, "-f", "rawvideo", "-pix_fmt",
                               "nv12", Output("died.nv12")},
                              "engine-dies-after:5");
  // ffmpeg reports every packet it could not decode and ends at the end of its input; the
  // pictures after the engine's death are missing.
  EXPECT_FALSE(run.timed_out);
  EXPECT_NE(run.err.find("fakenv: the decoding engine is gone"), std::string::npos) << run.err;
  EXPECT_LT(ReadBytes(Output("died.nv12")).size(), 60u * 640 * 360 * 3 / 2);
}

TEST_F(FakeGpu, UnattributedWorkLeavesNoSessionAndNoSamplesForFfmpeg) {
  Stage("ada-geforce-rtx4090.json");
  Process ffmpeg(FfmpegArgv({"-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "3",
                             "-c:v", "h264_nvenc", Output("unattributed.mp4")}),
                 Environment("unattributed"), dir_.path());
  // The session holds memory (a context's 256 MiB and a session's 96 MiB at least) and
  // counts against the cap, but NVML names no process.
  EXPECT_TRUE(Eventually(
      [&] { return Smi()["memory"]["used"].get<std::uint64_t>() >= (352ull << 20); }, kSmiPolling));
  const json during = Smi();
  EXPECT_TRUE(during["sessions"].empty()) << during.dump();
  const Finished done = ffmpeg.Wait();
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(Probe(Output("unattributed.mp4"))["nb_read_frames"], "90");
  const json after = Smi();
  EXPECT_TRUE(after["processSamples"].empty()) << after.dump();
}

TEST_F(FakeGpu, RunOnRunsAnyCommandOnTheStagedMachine) {
  const Finished run = testing::Run(
      {FAKENV_RUN_ON, Record("ada-geforce-rtx4090.json"), "--", "sh", "-c",
       "echo $MEDIA_CAP_SYSFS_ROOT $MEDIA_CAP_DEV_ROOT && ls \"$FAKENV_MACHINE/lib\" && "
       "ffmpeg -v error -f lavfi -i testsrc2=size=320x240 -t 1 -c:v h264_nvenc "
       "-f null - && echo encoded"},
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}, dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("/sys "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("libnvidia-encode.so.1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("encoded"), std::string::npos) << run.out;
  const Finished refused =
      testing::Run({FAKENV_RUN_ON, Record("h200.json"), "--", "ffmpeg", "-v", "error", "-f",
                    "lavfi", "-i", "testsrc2", "-t", "1", "-c:v", "h264_nvenc", "-f", "null", "-"},
                   {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR}, dir_.path());
  EXPECT_NE(refused.exit_code, 0);
}

TEST(FakeGpuFaults, AMisspeltFaultIsRefusedNotIgnored) {
  std::string_view unknown;
  EXPECT_FALSE(ParseFaults("encode-fails-after:3,engine-dies", &unknown));
  EXPECT_EQ(unknown, "engine-dies");
  EXPECT_FALSE(ParseFaults("encode-fails-after:x"));
  std::optional<Faults> faults = ParseFaults("encode-fails-after:3,unattributed");
  ASSERT_TRUE(faults);
  EXPECT_EQ(faults->encode_fails_after, 3u);
  EXPECT_TRUE(faults->unattributed);
  EXPECT_FALSE(faults->engine_dies_after);
}

TEST(FakeGpuWire, AFrameWhosePixelsDoNotMatchItsHeaderIsRefused) {
  wire::FrameHeader frame;
  frame.width = 64;
  frame.height = 32;
  frame.pitch = 64;
  std::vector<std::byte> payload(sizeof frame + wire::PictureBytes(frame.format, 64, 32));
  std::memcpy(payload.data(), &frame, sizeof frame);
  EXPECT_TRUE(wire::ParseFrameHeader(payload));
  payload.pop_back();
  EXPECT_FALSE(wire::ParseFrameHeader(payload));
  frame.pitch = 32;  // narrower than the picture
  std::memcpy(payload.data(), &frame, sizeof frame);
  EXPECT_FALSE(wire::ParseFrameHeader(payload));
}

TEST(FakeNvml, SamplesOfOneProcessInOnePeriodAreMergedAndCappedAt100) {
  Sample a;
  a.pid = 42;
  a.client_id = 1;
  a.timestamp_us = 1'000'050'000;
  a.enc_util = 70;
  Sample b = a;
  b.client_id = 2;
  b.timestamp_us = 1'000'060'000;
  Sample other = a;
  other.pid = 43;
  other.enc_util = 0;
  other.dec_util = 10;
  const std::vector<nvml::ProcessUtilizationSample> merged = ProcessSamples({a, b, other});
  ASSERT_EQ(merged.size(), 2u);
  for (const auto& sample : merged) {
    if (sample.pid == 42) {
      EXPECT_EQ(sample.encUtil, 100u);
      EXPECT_EQ(sample.timeStamp, 1'000'060'000u);
    } else {
      EXPECT_EQ(sample.decUtil, 10u);
    }
  }
}

}  // namespace
}  // namespace fakenv
