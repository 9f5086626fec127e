// The product's worker on the fake VA GPU: its evidence sampler reading the fake
// machine's /proc (real processes, the fake's DRM fdinfo), and `worker self-test` run
// through run-on on recorded Intel and AMD dumps, with and without an encoder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/eventually.h"
#include "support/temp_dir.h"
#include "test_process.h"
#include "worker/evidence/evidence.h"
#include "worker/evidence/evidence_sampler.h"
#include "worker/evidence/plausibility_check.h"

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;
using fakenv::testing::Finished;
using nlohmann::json;

std::string DumpPath(const std::string& name) { return std::string(FAKEVA_DUMPS_DIR) + "/" + name; }

// A fake machine of one dump, laid out by fake-machine, with its /proc kept in step by
// fakeva_proc_mirror for as long as the object lives: what run-on gives a command, here for
// commands this process starts under the product's own sampler.
class SampledMachine : public ::testing::Test {
 protected:
  void LayOut(const std::string& dump, const std::vector<std::string>& options = {}) {
    dump_ = DumpPath(dump);
    machine_ = dir_.path() / "machine";
    std::vector<std::string> argv = {FAKEVA_FAKE_MACHINE, machine_.string()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(dump_);
    const Finished laid = fakenv::testing::Run(argv, {}, dir_.path());
    ASSERT_EQ(laid.exit_code, 0) << laid.err;
    fs::create_directories(machine_ / "proc");
    mirror_ = std::make_unique<fakenv::testing::Process>(
        std::vector<std::string>{FAKEVA_PROC_MIRROR, (machine_ / "proc").string()},
        std::vector<std::string>{}, dir_.path().string());
    // The machine is ready once the mirror shows this process: a run started before would go
    // unseen by the sampler while the mirror starts, on a busy machine.
    const fs::path self = machine_ / "proc" / std::to_string(getpid());
    ASSERT_TRUE(testing::Eventually([&] { return fs::exists(self); },
                                    {.timeout = std::chrono::seconds(30)}))
        << "the mirror did not show this process";
  }

  void TearDown() override {
    // The mirror ends once its /proc is gone.
    std::error_code ignored;
    fs::remove_all(machine_ / "proc", ignored);
    if (mirror_) mirror_->Wait(std::chrono::seconds(5));
  }

  // Sampled runs ffmpeg with `arguments` on the machine (through env(1), which execs it, so
  // ffmpeg is the tree's root) under the product's sampler reading the machine's /proc.
  worker::SampledRun Sampled(const std::vector<std::string>& arguments) {
    // In a sanitizer build the shim and the driver carry AddressSanitizer, whose runtime goes
    // first; ffmpeg's own allocations left at exit are not this test's to report.
    const std::string asan_runtime = FAKEVA_ASAN_RUNTIME;
    std::vector<std::string> argv = {
        "env",
        "LD_PRELOAD=" + (asan_runtime.empty() ? "" : asan_runtime + ":") + std::string(FAKEVA_SHIM),
        "ASAN_OPTIONS=detect_leaks=0",
        "LIBVA_DRIVERS_PATH=" + std::string(FAKEVA_DRIVER_DIR),
        "LIBVA_DRIVER_NAME=fakeva",
        "FAKEVA_DUMP=" + dump_,
        "FAKEVA_MACHINE=" + machine_.string(),
        "ffmpeg",
        "-hide_banner",
        "-nostdin",
        "-y"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    worker::SamplerOptions sampling{.proc_root = (machine_ / "proc").string(),
                                    .interval = std::chrono::milliseconds(200)};
    return worker::RunSampled(argv, sampling, std::chrono::seconds(120),
                              (dir_.path() / "ffmpeg.log").string());
  }

  // Clip writes 3 s of 720p NV12 pictures, raw, so that reading them costs the runs next to
  // nothing and their CPU time is the encode's.
  fs::path Clip() {
    const fs::path clip = dir_.path() / "clip.nv12";
    const Finished made = fakenv::testing::Run(
        {"ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30",
         "-t", "3", "-pix_fmt", "nv12", "-f", "rawvideo", clip.string()},
        {}, dir_.path().string());
    EXPECT_EQ(made.exit_code, 0) << made.err;
    return clip;
  }

  static std::vector<std::string> Encode(const fs::path& clip, const std::string& encoder) {
    std::vector<std::string> arguments = {
        "-f", "rawvideo", "-pix_fmt", "nv12", "-s", "1280x720", "-r", "30", "-i", clip.string()};
    if (encoder.ends_with("_vaapi")) {
      arguments.insert(arguments.begin(), {"-vaapi_device", "/dev/dri/renderD128"});
      arguments.insert(arguments.end(), {"-vf", "hwupload"});
    } else {
      arguments.insert(arguments.end(), {"-preset", "veryfast"});
    }
    arguments.insert(arguments.end(), {"-c:v", encoder, "-f", "null", "-"});
    return arguments;
  }

  mc::testing::TempDir dir_;
  std::string dump_;
  fs::path machine_;
  std::unique_ptr<fakenv::testing::Process> mirror_;
};

// On the fake, as on a real GPU: a libx264 encode shows its CPU time and no engine work,
// and is judged no hardware evidence; an h264_vaapi encode shows the engine's time in the
// render node's fdinfo and a small part of libx264's CPU time, and passes both gates.
TEST_F(SampledMachine, ALibx264RunHasNoHardwareEvidenceAndAVaapiRunPassesBothGates) {
  LayOut("intel-ihd-dg1-gen12-24.1.txt");
  const fs::path clip = Clip();
  const worker::SampledRun cpu = Sampled(Encode(clip, "libx264"));
  ASSERT_EQ(cpu.exit_code, 0) << cpu.failure;
  EXPECT_GT(cpu.record.cpu_seconds, 0.3);
  const worker::EvidenceVerdict cpu_verdict = worker::JudgeEvidence(cpu.record, {.encode = true});
  EXPECT_FALSE(cpu_verdict.ok);
  EXPECT_NE(cpu_verdict.evidence.find("no hardware evidence (no encoder work seen)"),
            std::string::npos)
      << cpu_verdict.evidence;

  const worker::SampledRun gpu = Sampled(Encode(clip, "h264_vaapi"));
  ASSERT_EQ(gpu.exit_code, 0) << gpu.failure;
  const worker::EvidenceVerdict gpu_verdict = worker::JudgeEvidence(gpu.record, {.encode = true});
  EXPECT_TRUE(gpu_verdict.ok) << gpu_verdict.evidence;
  EXPECT_EQ(gpu_verdict.method, "drm_fdinfo");
  ASSERT_TRUE(gpu.record.drm);
  EXPECT_EQ(gpu.record.drm->drivers, (std::set<std::string>{"i915"}));
  EXPECT_GT(gpu.record.drm->time.codec_ns, 0u);

  const worker::CpuBaseline baseline{.cpu_seconds_per_media_second = cpu.record.cpu_seconds / 3,
                                     .pixels_per_frame = 1280.0 * 720.0};
  const worker::PlausibilityVerdict plausible =
      worker::JudgePlausibility({.tree_cpu_seconds = gpu.record.cpu_seconds,
                                 .media_seconds = 3,
                                 .pixels_per_frame = 1280.0 * 720.0,
                                 .baseline = baseline});
  EXPECT_TRUE(plausible.ok) << plausible.evidence << "; libx264 " << cpu.record.cpu_seconds
                            << " s, h264_vaapi " << gpu.record.cpu_seconds << " s";
}

// On a machine whose Intel GPU the kernel drives with xe, the engine's work shows as xe's
// busy cycles of the video engine class, which the sampler takes as encoder work.
TEST_F(SampledMachine, OnAnXeMachineTheEncodeShowsAsVcsCycles) {
  LayOut("intel-ihd-dg1-gen12-24.1.txt", {"--kernel-driver", "xe"});
  const worker::SampledRun gpu = Sampled(Encode(Clip(), "h264_vaapi"));
  ASSERT_EQ(gpu.exit_code, 0) << gpu.failure;
  ASSERT_TRUE(gpu.record.drm);
  EXPECT_EQ(gpu.record.drm->drivers, (std::set<std::string>{"xe"}));
  EXPECT_GT(gpu.record.drm->time.codec_cycles, 0u);
  EXPECT_GT(gpu.record.drm->time.codec_total_cycles, gpu.record.drm->time.codec_cycles);
  EXPECT_EQ(gpu.record.drm->time.codec_ns, 0u);
  EXPECT_TRUE(worker::JudgeEvidence(gpu.record, {.encode = true}).ok);
}

// `worker self-test` through run-on, as a person would run it on the recorded machine: the
// render node is the fake machine's (its dev root from run-on), as the probe names it.
class SelfTestOnFakeva : public ::testing::Test {
 protected:
  json SelfTest(const std::string& dump) {
    const std::string script =
        std::string(MEDIA_CAP_BINARY) +
        " worker self-test -o json --gpu 0 --ffmpeg ffmpeg --step-deadline 120"
        " --proc-root \"$MEDIA_CAP_PROC_ROOT\" --state-dir " +
        (dir_.path() / "state").string() + " --work-dir " + (dir_.path() / "work").string();
    const Finished run = fakenv::testing::Run(
        {FAKEVA_RUN_ON, DumpPath(dump), "--", "sh", "-c", script},
        {"MEDIA_CAP_BUILD=" + std::string(MEDIA_CAP_BUILD_DIR)}, dir_.path().string());
    json report = json::parse(run.out, nullptr, false);
    EXPECT_FALSE(report.is_discarded()) << run.out << run.err;
    return report;
  }

  static json Step(const json& report, const std::string& name) {
    for (const json& step : report.value("steps", json::array())) {
      if (step.value("name", "") == name) return step;
    }
    return json::object();
  }

  mc::testing::TempDir dir_;
};

TEST_F(SelfTestOnFakeva, OnTheIntelDumpTheEncodesAndSessionsPassOnI915VideoEngineTime) {
  const json report = SelfTest("intel-ihd-dg1-gen12-24.1.txt");
  const json encode = Step(report, "encode");
  EXPECT_TRUE(encode.value("ok", false)) << encode.dump();
  const std::string evidence = encode.value("evidence", "");
  EXPECT_NE(evidence.find("h264_vaapi: "), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("hevc_vaapi: "), std::string::npos) << evidence;
  EXPECT_EQ(evidence.find(", video 0 ns"), std::string::npos) << evidence;
  EXPECT_TRUE(Step(report, "session_slots").value("ok", false)) << report.dump();
  // i915 counts one video engine for decoding and encoding: its time proves the pipeline's
  // decode beside its encode.
  EXPECT_TRUE(Step(report, "pipeline").value("ok", false)) << Step(report, "pipeline").dump();
  // The libx264 baseline ran on the fake machine too, its CPU time read through its /proc.
  EXPECT_GT(report["cpu_baseline"].value("cpu_seconds_per_media_second", 0.0), 0.1)
      << report.dump();
}

// On AMD, whose decode ring has a key of its own, the encodes show encoder work, and the
// pipeline (H.264 decoded, scaled and encoded on the fake) decoder and encoder work; so do
// the H.264, HEVC and VP9 decode passes. The fake decodes no AV1, which this dump states:
// that pass falls back to the CPU, and the self-test must catch it rather than count it, so
// the worker stays unavailable.
TEST_F(SelfTestOnFakeva, OnTheAmdNavi22DumpAnAv1DecodeOnTheCpuIsCaughtBesideTheGpusOwnPasses) {
  const json report = SelfTest("amd-radeonsi-navi22-rx6750xt.txt");
  const json encode = Step(report, "encode");
  EXPECT_TRUE(encode.value("ok", false)) << encode.dump();
  EXPECT_NE(encode.value("evidence", "").find("h264_vaapi: "), std::string::npos) << encode.dump();
  EXPECT_EQ(encode.value("evidence", "").find("encode 0 ns"), std::string::npos) << encode.dump();
  EXPECT_TRUE(Step(report, "session_slots").value("ok", false)) << report.dump();
  const json pipeline = Step(report, "pipeline");
  EXPECT_TRUE(pipeline.value("ok", false)) << pipeline.dump();
  EXPECT_EQ(pipeline.value("evidence", "").find("decode 0 ns"), std::string::npos)
      << pipeline.dump();
  EXPECT_FALSE(report.value("ok", true));
  const json decode = Step(report, "decode_matrix");
  EXPECT_FALSE(decode.value("ok", true));
  const std::string passed = decode.value("evidence", "");
  EXPECT_EQ(passed.rfind("h264: ", 0), 0u) << decode.dump();
  EXPECT_NE(passed.find("; hevc: "), std::string::npos) << decode.dump();
  EXPECT_NE(passed.find("; vp9: "), std::string::npos) << decode.dump();
  EXPECT_EQ(passed.find("decode 0 ns"), std::string::npos) << decode.dump();
  EXPECT_EQ(decode.value("detail", "").rfind("av1: no hardware evidence (no decoder work seen)", 0),
            0u)
      << decode.dump();
}

// Where the dump states no codec the fake cannot decode, the whole self-test passes, each
// step on the kernel's own view of the engine: an Intel UHD 630-class iGPU (iHD, one video
// engine for decoding and encoding, scaling on video-enhance) and an AMD Polaris card.
TEST_F(SelfTestOnFakeva, TheWholeSelfTestPassesOnAnIntelUhd630ClassAndAnAmdPolarisDump) {
  for (const char* dump :
       {"intel-ihd-gen9.5-class-nonfree-20.2.txt", "amd-radeonsi-polaris12-rx550x.txt"}) {
    const json report = SelfTest(dump);
    EXPECT_TRUE(report.value("ok", false)) << dump << ": " << report.dump();
    for (const char* name : {"gate", "encode", "pipeline", "session_slots", "decode_matrix"}) {
      const json step = Step(report, name);
      EXPECT_TRUE(step.value("ok", false)) << dump << ": " << step.dump();
    }
    const std::string decoded = Step(report, "decode_matrix").value("evidence", "");
    EXPECT_EQ(decoded.rfind("h264: ", 0), 0u) << dump << ": " << decoded;
    EXPECT_NE(decoded.find("; hevc: "), std::string::npos) << dump << ": " << decoded;
    EXPECT_EQ(decoded.find("not tested"), std::string::npos) << dump << ": " << decoded;
    EXPECT_GT(report.value("sessions_cap", 0), 0) << dump;
  }
}

TEST_F(SelfTestOnFakeva, ADumpWithoutAnEncoderFailsClosed) {
  for (const char* dump :
       {"amd-radeonsi-navi22-rx6700xt-no-codecs.txt", "intel-ihd-icelake-videoproc-only.txt"}) {
    const json report = SelfTest(dump);
    EXPECT_FALSE(report.value("ok", true)) << dump;
    const json encode = Step(report, "encode");
    EXPECT_FALSE(encode.value("ok", true)) << dump << ": " << encode.dump();
    EXPECT_NE(encode.value("detail", ""), "") << dump;
    EXPECT_EQ(report.value("sessions_cap", json()).is_null(), true) << dump;
  }
}

}  // namespace
}  // namespace mc::fakeva
