// The no-silent-CPU rule against real CPU work: Debian's ffmpeg encoding with libx264, and
// decoding after a `-hwaccel vaapi` that failed and fell back to the CPU without a word (the
// real libva with the fake VA driver, whose surfaces cannot be created), each run under the
// evidence sampler on this machine's real /proc. Both must be judged "no hardware evidence".
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>

#include "support/run_command.h"
#include "support/temp_dir.h"
#include "worker/evidence/argv_check.h"
#include "worker/evidence/evidence_sampler.h"
#include "worker/evidence/plausibility_check.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

constexpr double kClipSeconds = 6;
// Large enough that libx264's work, a second of CPU or more, outweighs ffmpeg's start, which
// the plausibility check leaves out.
constexpr double kClipPixels = 1280 * 720;

// Clip writes a short H.264 test clip, quickly, for the runs to read.
fs::path Clip(const mc::testing::TempDir& dir) {
  const fs::path clip = dir.path() / "clip.mp4";
  const probe::ChildOutcome made =
      mc::testing::RunCommand({"ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                               "testsrc=size=1280x720:rate=25", "-t", "6", "-c:v", "libx264",
                               "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip.string()});
  EXPECT_EQ(made.code, 0) << made.err;
  return clip;
}

std::vector<std::string> Libx264Transcode(const fs::path& clip) {
  return {"-hide_banner", "-nostdin", "-i", clip.string(), "-c:v", "libx264",
          "-preset",      "medium",   "-f", "mp4",         "-y",   "/dev/null"};
}

std::vector<std::string> Command(std::vector<std::string> argv) {
  argv.insert(argv.begin(), "ffmpeg");
  return argv;
}

// ScopedVariable sets an environment variable for the children started while it lives, and
// puts back what was there.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

SamplerOptions FastSampling() { return {.interval = std::chrono::milliseconds(200)}; }

TEST(CpuFallbackUnderTheSampler, ARealLibx264TranscodeIsJudgedNoHardwareEvidence) {
  mc::testing::TempDir dir;
  const fs::path clip = Clip(dir);
  // The box's CPU-encode baseline, as the self-test measures it: libx264 on the same clip.
  const SampledRun baseline_run =
      RunSampled(Command(Libx264Transcode(clip)), FastSampling(), std::chrono::seconds(120));
  ASSERT_EQ(baseline_run.exit_code, 0) << baseline_run.failure;
  const CpuBaseline baseline{baseline_run.record.cpu_seconds / kClipSeconds, kClipPixels};

  const std::vector<std::string> job = Libx264Transcode(clip);
  const SampledRun run = RunSampled(Command(job), FastSampling(), std::chrono::seconds(120),
                                    (dir.path() / "log").string());
  ASSERT_EQ(run.exit_code, 0) << run.failure << mc::testing::ReadFile(dir.path() / "log");
  EXPECT_GE(run.record.samples, 1);
  // A real encode spends real CPU time, and the sampler saw it.
  EXPECT_GT(run.record.cpu_seconds, 0.2);

  // The job claims an encode; nothing on a GPU shows one.
  const EvidenceVerdict evidence = JudgeEvidence(run.record, {.encode = true});
  EXPECT_FALSE(evidence.ok);
  EXPECT_EQ(evidence.method, "none");
  EXPECT_NE(evidence.evidence.find("no hardware evidence"), std::string::npos) << evidence.evidence;

  const PlausibilityVerdict plausibility =
      JudgePlausibility({.tree_cpu_seconds = run.record.cpu_seconds,
                         .media_seconds = kClipSeconds,
                         .pixels_per_frame = kClipPixels,
                         .baseline = baseline});
  EXPECT_FALSE(plausibility.ok) << plausibility.evidence;
  ASSERT_TRUE(plausibility.fraction_of_baseline);
  // Twice what a hardware job may spend at the least, ffmpeg's start left out of the count.
  EXPECT_GT(*plausibility.fraction_of_baseline, 2 * PlausibilityInputs{}.max_fraction);

  ArgvDevice device{.api = "nvidia",
                    .probe_module = "nvidia-nvenc",
                    .capabilities = {true, true, false, true, true, true, true}};
  EXPECT_FALSE(JudgeArgv(job, device).ok);
}

TEST(CpuFallbackUnderTheSampler,
     AHwaccelVaapiThatSilentlyFellBackToTheCpuIsJudgedNoHardwareEvidence) {
  mc::testing::TempDir dir;
  const fs::path clip = Clip(dir);
  const fs::path machine = dir.path() / "machine";
  // A Mesa build without its video codecs: the device opens, but states no H.264 decode.
  const std::string dump =
      std::string(FAKEVA_DUMPS_DIR) + "/amd-radeonsi-navi22-rx6700xt-no-codecs.txt";
  const probe::ChildOutcome laid =
      mc::testing::RunCommand({FAKEVA_FAKE_MACHINE, machine.string(), dump});
  ASSERT_EQ(laid.code, 0) << laid.err;
  const std::string node = (machine / "dev/dri/renderD128").string();

  const std::vector<std::string> job = {"-hide_banner",
                                        "-nostdin",
                                        "-v",
                                        "verbose",
                                        "-init_hw_device",
                                        "vaapi=va:" + node,
                                        "-hwaccel",
                                        "vaapi",
                                        "-hwaccel_device",
                                        "va",
                                        "-i",
                                        clip.string(),
                                        "-f",
                                        "null",
                                        "-"};
  ArgvDevice device{.api = "vaapi",
                    .probe_module = "vaapi",
                    .capabilities = {true, true, false, true, true, true, true}};
  const ArgvVerdict argv = JudgeArgv(job, device);
  ASSERT_TRUE(argv.ok) << argv.reason;
  ASSERT_TRUE(argv.expectation.decode);

  // The child gets the fake VA machine through its environment; this process loads nothing.
  // In a sanitizer build the shim and the driver carry AddressSanitizer, so its runtime is
  // preloaded first, and ffmpeg's own leaks at exit are not this test's to report.
  const ScopedVariable preload("LD_PRELOAD", FAKEVA_PRELOAD);
  const ScopedVariable asan("ASAN_OPTIONS", "detect_leaks=0");
  const ScopedVariable drivers("LIBVA_DRIVERS_PATH", FAKEVA_DRIVER_DIR);
  const ScopedVariable driver("LIBVA_DRIVER_NAME", "fakeva");
  const ScopedVariable fake_dump("FAKEVA_DUMP", dump);
  const SampledRun run = RunSampled(Command(job), FastSampling(), std::chrono::seconds(60),
                                    (dir.path() / "log").string());
  const std::string log = mc::testing::ReadFile(dir.path() / "log");

  // ffmpeg opened the VA device, failed to set up the hardware decoder, decoded on the CPU,
  // and exited 0: the silent fallback itself.
  ASSERT_EQ(run.exit_code, 0) << run.failure << log;
  ASSERT_NE(log.find("Initialised VAAPI connection"), std::string::npos) << log;
  ASSERT_NE(log.find("Failed setup for format vaapi"), std::string::npos) << log;

  const EvidenceVerdict evidence = JudgeEvidence(run.record, argv.expectation);
  EXPECT_FALSE(evidence.ok);
  EXPECT_FALSE(evidence.decode_proven);
  EXPECT_NE(evidence.evidence.find("no hardware evidence (no decoder work seen)"),
            std::string::npos)
      << evidence.evidence;
}

}  // namespace
}  // namespace mc::worker
