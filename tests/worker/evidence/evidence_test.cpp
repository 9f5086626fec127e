// JudgeEvidence, the argv check and the plausibility check, as pure functions.
#include "worker/evidence/evidence.h"

#include <gtest/gtest.h>

#include "worker/evidence/argv_check.h"
#include "worker/evidence/plausibility_check.h"

namespace mc::worker {
namespace {

EvidenceRecord WithNvml(std::int64_t sessions, std::uint32_t enc, std::uint32_t dec) {
  EvidenceRecord record;
  record.samples = 5;
  record.nvml = NvmlEvidence{.samples_of_tree = 5,
                             .max_enc_util = enc,
                             .max_dec_util = dec,
                             .max_sessions_of_tree = sessions};
  return record;
}

TEST(JudgeEvidence, AnEncoderSessionOfTheTreeProvesEncoding) {
  const EvidenceVerdict verdict = JudgeEvidence(WithNvml(1, 0, 0), {.encode = true});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_EQ(verdict.method, "nvml_encoder_sessions");
}

TEST(JudgeEvidence, DecodeIsProvenOnItsOwnSoAnEncodeAloneDoesNotProveAHardwareDecode) {
  const EvidenceVerdict verdict =
      JudgeEvidence(WithNvml(1, 60, 0), {.encode = true, .decode = true});
  EXPECT_FALSE(verdict.ok);
  EXPECT_TRUE(verdict.encode_proven);
  EXPECT_FALSE(verdict.decode_proven);
  EXPECT_NE(verdict.evidence.find("no decoder work"), std::string::npos) << verdict.evidence;
}

TEST(JudgeEvidence, DecoderUtilisationProvesADecode) {
  const EvidenceVerdict verdict = JudgeEvidence(WithNvml(0, 0, 35), {.decode = true});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_EQ(verdict.method, "nvml_process_util");
}

TEST(JudgeEvidence, FlatCountersAreNoEvidence) {
  const EvidenceVerdict verdict = JudgeEvidence(WithNvml(0, 0, 0), {.encode = true});
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.method, "none");
}

// i915 and xe count one video engine for decoding and encoding: its time proves both, on
// an Intel pass that decodes and encodes as on one that does either; otherwise no Intel
// worker could pass its self-test's pipeline or run a job that decodes on the GPU.
TEST(JudgeEvidence, IntelsOneVideoEngineProvesTheDecodeBesideTheEncode) {
  for (const MediaEngineTime time :
       {MediaEngineTime{.codec_ns = 5'000'000}, MediaEngineTime{.codec_cycles = 90'000}}) {
    EvidenceRecord record;
    record.samples = 3;
    record.drm = DrmEvidence{.clients = 1, .time = time};
    EXPECT_TRUE(JudgeEvidence(record, {.decode = true}).ok);
    EXPECT_TRUE(JudgeEvidence(record, {.encode = true, .decode = true}).ok);
    EXPECT_TRUE(JudgeEvidence(record, {.encode = true}).ok);
  }
}

// amdgpu counts its encode and decode engines apart: the encode engine's time proves a decode
// only on a pass that encodes nothing (newer parts decode on it too).
TEST(JudgeEvidence, AmdsEncodeEngineProvesADecodeOnlyOnADecodeOnlyPass) {
  EvidenceRecord record;
  record.samples = 3;
  record.drm = DrmEvidence{.clients = 1, .time = {.encode_ns = 5'000'000}};
  EXPECT_TRUE(JudgeEvidence(record, {.decode = true}).ok);
  EXPECT_FALSE(JudgeEvidence(record, {.encode = true, .decode = true}).ok);
  EXPECT_TRUE(JudgeEvidence(record, {.encode = true}).ok);
  record.drm->time.decode_ns = 3'000'000;
  EXPECT_TRUE(JudgeEvidence(record, {.encode = true, .decode = true}).ok);
}

TEST(JudgeEvidence, AJobThatAsksTheGpuForNothingProvesNothing) {
  EXPECT_FALSE(JudgeEvidence(WithNvml(1, 50, 50), {}).ok);
}

ArgvDevice Nvidia() {
  ArgvDevice device{.api = "nvidia", .probe_module = "nvidia-nvenc"};
  device.capabilities = {true, true, false, true, true, true, true};  // no av1_enc
  return device;
}

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  for (char c : line) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

TEST(ArgvCheck, TheFullNvidiaPipelinePassesAndExpectsDecodeAndEncode) {
  const ArgvVerdict verdict =
      JudgeArgv(Words("-y -init_hw_device cuda=cu:0 -filter_hw_device cu -hwaccel cuda "
                      "-hwaccel_output_format cuda "
                      "-c:v h264_cuvid -i in.mp4 -vf scale_cuda=1280:720:format=yuv420p -c:v "
                      "h264_nvenc -preset p5 "
                      "-c:a copy out.mp4"),
                Nvidia());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_TRUE(verdict.expectation.encode);
  EXPECT_TRUE(verdict.expectation.decode);
  ASSERT_EQ(verdict.outputs.size(), 1u);
  EXPECT_EQ(verdict.outputs[0].second, "h264_nvenc");
}

TEST(ArgvCheck, Libx264IsRefusedNamingTheOutput) {
  const ArgvVerdict verdict = JudgeArgv(Words("-i in.mp4 -c:v libx264 -crf 23 out.mp4"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.reason,
            "output out.mp4: libx264 is not a hardware encoder of this device (a CPU encoder, or "
            "unknown)");
}

TEST(ArgvCheck, AnOutputWithNoEncoderIsRefusedBecauseFfmpegWouldChooseACpuEncoder) {
  const ArgvVerdict verdict = JudgeArgv(Words("-i in.mp4 -c:v h264_nvenc a.mp4 b.mp4"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.reason.find("output b.mp4 names no video encoder"), std::string::npos)
      << verdict.reason;
}

TEST(ArgvCheck, AnEncoderTheDeviceDoesNotStateIsRefused) {
  const ArgvVerdict verdict = JudgeArgv(Words("-i in.mp4 -c:v av1_nvenc out.mkv"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.reason.find("needs av1_enc"), std::string::npos) << verdict.reason;
}

TEST(ArgvCheck, AnotherApisEncoderIsRefused) {
  const ArgvVerdict verdict = JudgeArgv(Words("-i in.mp4 -c:v h264_vaapi out.mp4"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.reason.find("runs on vaapi"), std::string::npos) << verdict.reason;
}

TEST(ArgvCheck, QsvEncodersPassOnlyUnderIntelQsv) {
  ArgvDevice intel{.api = "vaapi",
                   .probe_module = "vaapi",
                   .capabilities = {true, true, false, true, true, true, true}};
  EXPECT_FALSE(JudgeArgv(Words("-i in.mp4 -c:v h264_qsv out.mp4"), intel).ok);
  intel.probe_module = "intel-qsv";
  EXPECT_TRUE(JudgeArgv(Words("-i in.mp4 -c:v h264_qsv out.mp4"), intel).ok);
}

TEST(ArgvCheck, AudioOnlyAndStreamCopyOutputsNeedNoEncoderButExpectNoGpuWork) {
  const ArgvVerdict verdict =
      JudgeArgv(Words("-i in.mp4 -vn -c:a aac audio.m4a -c copy remux.mkv"), Nvidia());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_FALSE(verdict.expectation.encode);
  EXPECT_FALSE(verdict.expectation.decode);
}

TEST(ArgvCheck, EveryOutputIsJudgedAndALaterCpuOutputIsRefused) {
  const ArgvVerdict verdict =
      JudgeArgv(Words("-i in.mp4 -c:v hevc_nvenc a.mp4 -c:v:0 libx265 b.mp4"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.reason.find("output b.mp4: libx265"), std::string::npos) << verdict.reason;
}

TEST(ArgvCheck, AnOptionWithoutItsValueIsRefused) {
  const ArgvVerdict verdict = JudgeArgv(Words("-i in.mp4 -c:v"), Nvidia());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.reason, "option -c:v has no value at the end of the command line");
}

TEST(ArgvCheck, ADecodeOnlyPassIntoTheNullSinkExpectsADecodeAndNoEncode) {
  const ArgvVerdict verdict =
      JudgeArgv(Words("-hwaccel cuda -c:v hevc_cuvid -i in.mkv -f null -"), Nvidia());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_TRUE(verdict.expectation.decode);
  EXPECT_FALSE(verdict.expectation.encode);
}

TEST(PlausibilityCheck, ACpuEncodeShapedCpuTimeFails) {
  const PlausibilityVerdict verdict =
      JudgePlausibility({.tree_cpu_seconds = 9.0,
                         .media_seconds = 10,
                         .pixels_per_frame = 1920 * 1080,
                         .baseline = CpuBaseline{1.0, 1920 * 1080}});
  EXPECT_FALSE(verdict.ok);
  // What it spent beyond ffmpeg's start, 8.5 s, against the 10 s libx264 takes.
  EXPECT_NEAR(*verdict.fraction_of_baseline, 0.85, 1e-9);
  EXPECT_TRUE(verdict.evidence.starts_with("CPU-encode-shaped"));
}

TEST(PlausibilityCheck, AHardwareJobsSmallCpuTimePassesScaledToItsPictureSize) {
  // The baseline is at 720p; at 1080p libx264 would spend 2.25 times as much.
  const PlausibilityVerdict verdict = JudgePlausibility({.tree_cpu_seconds = 1.0,
                                                         .media_seconds = 10,
                                                         .pixels_per_frame = 1920 * 1080,
                                                         .baseline = CpuBaseline{0.4, 1280 * 720}});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_NEAR(*verdict.fraction_of_baseline, 0.5 / 9.0, 1e-9);
}

// A two-second 360p upload: ffmpeg's start is most of what the tree spends, and libx264 would
// have spent a quarter of a second; the gate took every such job for a CPU encode before.
TEST(PlausibilityCheck, AShortClipsStartIsNotTakenForACpuEncode) {
  const PlausibilityVerdict verdict =
      JudgePlausibility({.tree_cpu_seconds = 0.27,
                         .media_seconds = 2,
                         .pixels_per_frame = 640 * 360,
                         .baseline = CpuBaseline{1.14, 1920 * 1080}});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
}

TEST(PlausibilityCheck, AShortClipsCpuEncodeBeyondTheStartStillFails) {
  const PlausibilityVerdict verdict =
      JudgePlausibility({.tree_cpu_seconds = 1.5,
                         .media_seconds = 2,
                         .pixels_per_frame = 1920 * 1080,
                         .baseline = CpuBaseline{0.6, 1920 * 1080}});
  EXPECT_FALSE(verdict.ok) << verdict.evidence;
}

// A prosumer camera's 1080p60 4:2:2 10-bit H.264, which the plan decodes on the CPU: the
// decode costs what it costs (59 % of the libx264 budget here), while NVENC did the encode.
TEST(PlausibilityCheck, ACpuDecodeOfA422TenBitInputIsNotJudgedCpuShaped) {
  const PlausibilityVerdict verdict =
      JudgePlausibility({.tree_cpu_seconds = 1.0 + 0.59 * 2 * 2 * 1.14,
                         .media_seconds = 2,
                         .pixels_per_frame = 2 * 1920 * 1080,
                         .baseline = CpuBaseline{1.14, 1920 * 1080},
                         .decoded_frames = 120,
                         .decoded_pixels = 1920 * 1080,
                         .encoded_frames = 60,
                         .encoded_pixels = 1920 * 1080,
                         .cpu_decode = true});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_FALSE(verdict.judged);
  EXPECT_NE(verdict.evidence.find("decodes the input on the CPU"), std::string::npos);
}

// A one-frame clip: ffmpeg's progress says time=00:00:00.00 and the container may say no more.
TEST(PlausibilityCheck, AOneFrameClipWhoseDurationIsUnknownIsNotJudged) {
  const PlausibilityVerdict verdict =
      JudgePlausibility({.tree_cpu_seconds = 0.3,
                         .media_seconds = 0,
                         .pixels_per_frame = 2 * 1280 * 720,
                         .baseline = CpuBaseline{1.14, 1920 * 1080}});
  EXPECT_TRUE(verdict.ok) << verdict.evidence;
  EXPECT_FALSE(verdict.judged);
  EXPECT_NE(verdict.evidence.find("the GPU's own evidence decides"), std::string::npos);
}

// 720p at 240 fps, decoded on the GPU and encoded at 30: the budget counts the 240 frames a
// second the job decoded, not the baseline's 30.
TEST(PlausibilityCheck, TheBudgetCountsEveryDecodedFrameOfAHighRateInput) {
  const PlausibilityInputs work{.tree_cpu_seconds = 0.5 + 1.5,
                                .media_seconds = 2,
                                .pixels_per_frame = 2 * 1280 * 720,
                                .baseline = CpuBaseline{1.14, 1920 * 1080},
                                .decoded_frames = 480,
                                .decoded_pixels = 1280 * 720,
                                .encoded_frames = 60,
                                .encoded_pixels = 1280 * 720};
  const PlausibilityVerdict counted = JudgePlausibility(work);
  EXPECT_TRUE(counted.ok) << counted.evidence;
  // libx264 on 540 frames of 720p: 540 / 30 * 1.14 * (1280 * 720) / (1920 * 1080) s.
  EXPECT_NEAR(*counted.fraction_of_baseline, 1.5 / (540.0 / 30 * 1.14 * 4 / 9), 1e-9);
  PlausibilityInputs by_seconds = work;
  by_seconds.decoded_frames = 0;
  EXPECT_FALSE(JudgePlausibility(by_seconds).ok);
}

TEST(PlausibilityCheck, NoBaselineFailsClosed) {
  const PlausibilityVerdict verdict = JudgePlausibility(
      {.tree_cpu_seconds = 0.1, .media_seconds = 10, .pixels_per_frame = 1920 * 1080});
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.evidence.find("no CPU-encode baseline"), std::string::npos);
}

}  // namespace
}  // namespace mc::worker
