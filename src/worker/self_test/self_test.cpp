#include "worker/self_test/self_test.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "probe/capabilities/encode_session_cap.h"
#include "worker/evidence/evidence.h"
#include "worker/evidence/evidence_sampler.h"
#include "worker/evidence/nvml_library.h"
#include "worker/evidence/nvml_watch.h"
#include "worker/probe_contract/contract_report.h"
#include "worker/probe_contract/nvidia_advice.h"
#include "worker/probe_contract/sandbox.h"
#include "worker/probe_contract/utc_time.h"
#include "worker/self_test/self_test_commands.h"
#include "worker/self_test/self_test_ffmpeg_log.h"
#include "worker/self_test/self_test_state.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Where no driver states a session cap (datacenter boards), the session-slot test opens this
// many at once. It is more than a worker of one GPU runs, and few enough to start quickly.
constexpr std::int64_t kSessionsWithoutStatedCap = 8;
// How many times over each decode pass reads its stream (one or two seconds long).
constexpr int kDecodeLoops = 10;

std::string Megabytes(std::uint64_t bytes) {
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

bool CanLoad(const char* library) {
  void* handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
  if (handle) dlclose(handle);
  return handle != nullptr;
}

// An ffmpeg run of a step, with what it printed.
struct FfmpegRun {
  SampledRun sampled;
  std::string log;
  // Why it failed in ffmpeg's own words, or the deadline; empty when it exited 0.
  std::string failure;
};

// The sandbox every ffmpeg of the self-test runs in, as a job's does: its streams to read, its
// scratch folder to write. None where the kernel has no Landlock; the error is any other
// failure to make it, which fails each run.
Result<std::optional<Sandbox>> SelfTestSandbox(const SelfTestOptions& options) {
  SandboxPaths paths;
  if (!options.streams_dir.empty()) paths.read.push_back(options.streams_dir);
  paths.read_write.push_back(options.scratch_dir);
  const char* library_path = std::getenv("LD_LIBRARY_PATH");
  const char* va_drivers_path = std::getenv("LIBVA_DRIVERS_PATH");
  AddEnvironmentPaths({.ffmpeg = options.config.ffmpeg,
                       .library_path = library_path ? library_path : "",
                       .va_drivers_path = va_drivers_path ? va_drivers_path : "",
                       .extra_paths = options.config.sandbox_paths},
                      paths);
  Result<Sandbox> sandbox = Sandbox::Make(paths);
  if (sandbox) return std::optional<Sandbox>(std::move(*sandbox));
  if (sandbox.error().IsUnsupported()) return std::optional<Sandbox>();
  return sandbox.error().WithContext("ffmpeg's sandbox");
}

class SelfTest {
 public:
  SelfTest(const probe::ProbeResult& probe, const ProbeContract& contract,
           const SelfTestOptions& options)
      : probe_(probe),
        contract_(contract),
        options_(options),
        report_(ReportOf(probe, contract)),
        sandbox_(SelfTestSandbox(options)) {}

  SelfTestReport Run() {
    SelfTestReport result;
    result.ts = NowUtc();
    if (!contract_.devices.empty()) result.gpu = TestedGpuOf(contract_.devices[0]);
    const bool gate = Step(result, "gate", [&](SelfTestStep& step) { Gate(step); });
    bool encoded = false;
    if (gate) {
      encoded = Step(result, "encode", [&](SelfTestStep& step) { Encodes(step); });
    } else {
      Skip(result, "encode", "not run: the gate failed");
    }
    if (encoded) {
      Step(result, "pipeline", [&](SelfTestStep& step) { Pipeline(step, result); });
      Step(result, "session_slots", [&](SelfTestStep& step) { Sessions(step, result); });
    } else {
      const std::string why = gate ? "not run: the encode step failed" : "not run: the gate failed";
      Skip(result, "pipeline", why);
      Skip(result, "session_slots", why);
    }
    if (gate) {
      Step(result, "decode_matrix", [&](SelfTestStep& step) { DecodeMatrix(step); });
    } else {
      Skip(result, "decode_matrix", "not run: the gate failed");
    }
    result.cpu_baseline = MeasureCpuBaseline();
    result.downgraded = downgraded_;
    Conclude(result);
    return result;
  }

  // The canary: the gate, the H.264 encode of the test's own stream, and the pipeline that
  // decodes it on the GPU. A step that fails skips those after it.
  SelfTestReport Canary() {
    SelfTestReport result;
    result.ts = NowUtc();
    if (!contract_.devices.empty()) result.gpu = TestedGpuOf(contract_.devices[0]);
    const bool gate = Step(result, "gate", [&](SelfTestStep& step) { Gate(step); });
    bool encoded = false;
    if (gate) {
      encoded = Step(result, "encode", [&](SelfTestStep& step) { Encodes(step, true); });
    } else {
      Skip(result, "encode", "not run: the gate failed");
    }
    if (encoded) {
      Step(result, "pipeline", [&](SelfTestStep& step) { Pipeline(step, result); });
    } else {
      Skip(result, "pipeline",
           gate ? "not run: the encode step failed" : "not run: the gate failed");
    }
    Conclude(result);
    return result;
  }

 private:
  // Conclude gives the report its verdict, evidence and detail from its steps.
  static void Conclude(SelfTestReport& result) {
    result.ok = std::all_of(result.steps.begin(), result.steps.end(),
                            [](const SelfTestStep& s) { return s.ok; });
    std::vector<std::string> passed;
    for (const SelfTestStep& step : result.steps) {
      if (step.ok) passed.push_back(step.name);
      if (!step.ok && result.detail.empty())
        result.detail = "step " + step.name + ": " + step.detail;
    }
    result.evidence = passed.empty() ? "no step passed" : "passed: " + Joined(passed, ", ");
  }

  // Step runs one step under its deadline and records it; it says whether the step passed.
  bool Step(SelfTestReport& result, const std::string& name,
            const std::function<void(SelfTestStep&)>& body) {
    if (Stopping()) {
      Skip(result, name, "not run: the worker is stopping");
      return false;
    }
    SelfTestStep step;
    step.name = name;
    step_name_ = name;
    step_started_ = Clock::now();
    body(step);
    step.seconds = std::chrono::duration<double>(Clock::now() - step_started_).count();
    result.steps.push_back(step);
    return step.ok;
  }

  static void Skip(SelfTestReport& result, const std::string& name, const std::string& why) {
    result.steps.push_back(
        {.name = name, .ok = false, .seconds = 0, .evidence = "", .detail = why});
  }

  bool Stopping() const { return options_.stop != nullptr && options_.stop->load(); }

  bool Nvidia() const {
    return !contract_.devices.empty() && contract_.devices[0].vendor == "nvidia";
  }

  std::chrono::milliseconds Deadline() const {
    return std::chrono::seconds(options_.config.step_deadline_s);
  }

  // Left is what remains of the step's deadline.
  std::chrono::milliseconds Left() const {
    const auto spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - step_started_);
    return std::max(std::chrono::milliseconds(1), Deadline() - spent);
  }

  SamplerOptions Sampling() const {
    SamplerOptions sampling;
    sampling.proc_root = options_.proc_root;
    sampling.interval = options_.sample_interval;
    sampling.nvml_library = options_.nvml_library;
    if (Nvidia()) sampling.nvidia_pci_address = contract_.devices[0].pci_address;
    sampling.read_drm = !Nvidia();
    sampling.sandbox = sandbox_ && *sandbox_ ? &**sandbox_ : nullptr;
    sampling.stop = options_.stop;
    return sampling;
  }

  std::string LogPath(const std::string& name) const {
    return (fs::path(options_.scratch_dir) / (name + ".log")).string();
  }

  void LogCommand(const std::vector<std::string>& argv) const {
    if (options_.command_log.empty()) return;
    std::string line = step_name_ + "\t";
    for (std::size_t i = 0; i < argv.size(); ++i) line += (i ? "\x1f" : "") + argv[i];
    std::lock_guard lock(command_log_mutex_);
    std::ofstream(options_.command_log, std::ios::app) << line << "\n";
  }

  FfmpegRun Ffmpeg(const std::vector<std::string>& argv, const std::string& name,
                   const EnoughEvidence& enough = {}) const {
    FfmpegRun run;
    if (Stopping()) {
      run.failure = "not run: the worker is stopping";
      return run;
    }
    LogCommand(argv);
    if (!sandbox_) {
      run.failure = sandbox_.error_message();
      return run;
    }
    run.sampled = RunSampled(argv, Sampling(), Left(), LogPath(name), enough);
    // A log ffmpeg never wrote reads as empty, as no output.
    Result<std::string> log = ReadFileText(LogPath(name));
    run.log = log ? std::move(*log) : std::string();
    if (run.sampled.timed_out) {
      run.failure = "ran past the step's deadline of " +
                    std::to_string(options_.config.step_deadline_s) + " s";
    } else if (!run.sampled.failure.empty()) {
      run.failure = run.sampled.failure;
    } else if (run.sampled.exit_code != 0 && !run.sampled.stopped) {
      const std::string line = FfmpegErrorLine(run.log);
      run.failure = line.empty() ? "ffmpeg exited " + std::to_string(run.sampled.exit_code) : line;
      // NVENC's words say what failed; the advice says what to do (no NVENC on this board).
      if (const std::string advice = Nvidia() ? NvencAdvice(line) : ""; !advice.empty())
        run.failure += "; " + advice;
    }
    return run;
  }

  // MeasureCpuBaseline encodes one second of 1080p with libx264, the runner's own encoder. It
  // gives the CPU time per second of media. The plausibility check holds every hardware job's
  // CPU time against it. It is not a step: a box whose ffmpeg lacks libx264 can still pass.
  // (A datacenter box's static ffmpeg may lack it.) Its jobs are then judged without the
  // check's help, which fails closed.
  std::optional<CpuBaseline> MeasureCpuBaseline() {
    if (!Listed("-encoders").contains("libx264")) return std::nullopt;
    constexpr int kWidth = 1920, kHeight = 1080;
    const std::vector<std::string> argv = {
        options_.config.ffmpeg,
        "-hide_banner",
        "-nostdin",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "testsrc2=size=" + std::to_string(kWidth) + "x" + std::to_string(kHeight) + ":rate=30",
        "-t",
        "1",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-f",
        "null",
        "-"};
    const FfmpegRun run = Ffmpeg(argv, "cpu-baseline");
    if (!run.failure.empty() || run.sampled.record.cpu_seconds <= 0) return std::nullopt;
    return CpuBaseline{.cpu_seconds_per_media_second = run.sampled.record.cpu_seconds,
                       .pixels_per_frame = double(kWidth) * kHeight};
  }

  std::set<std::string> Listed(const std::string& what) {
    auto& cached = what == "-encoders" ? encoders_ : decoders_;
    if (!cached)
      cached = ListedCodecs(Ffmpeg(ListArgv(options_.config.ffmpeg, what), "list" + what).log);
    return *cached;
  }

  SelfTestTarget Target() const {
    SelfTestTarget target;
    target.api = Nvidia() ? "nvidia" : "vaapi";
    if (!contract_.devices.empty()) {
      target.cuda_index = CudaIndexOf(probe_, contract_.devices[0].pci_address);
      target.render_node = contract_.devices[0].render_node;
    }
    return target;
  }

  bool Claims(std::string_view capability) const {
    for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
      if (kCapabilityKeys[i].key == capability) return contract_.capabilities[i];
    }
    return false;
  }

  bool ClaimsAttribute(std::string_view attribute) const {
    if (!report_) return false;
    const probe::AttributeValue* value = report_->device.Attribute(std::string(attribute));
    return value && std::holds_alternative<bool>(*value) && std::get<bool>(*value);
  }

  // 1. The gate: the GPU is there and its driver answered the probe; then its vendor's own
  // preconditions.
  void Gate(SelfTestStep& step) {
    if (contract_.devices.empty() || !report_) {
      step.detail = contract_.reason.value_or("the probe found no such GPU");
      return;
    }
    if (report_->failure) {
      step.detail = "the driver query failed: " + *report_->failure;
      return;
    }
    if (Nvidia()) {
      GateNvidia(step);
    } else {
      GateVaapi(step);
    }
  }

  // The VA-API gate: the render node exists. The probe's path holds the dev root already.
  void GateVaapi(SelfTestStep& step) {
    const std::string& node = contract_.devices[0].render_node;
    if (node.empty() || !fs::exists(node)) {
      step.detail = "the render node " + node + " is missing";
      return;
    }
    step.ok = true;
    step.evidence = "render node " + node + "; driver " + contract_.devices[0].driver;
  }

  // The NVIDIA gate: the driver's libraries load, its control node exists, the driver is new
  // enough and the free VRAM is above the floor.
  void GateNvidia(SelfTestStep& step) {
    if (!CanLoad("libcuda.so.1")) {
      step.detail = "the NVIDIA driver's libcuda.so.1 cannot be loaded";
      return;
    }
    // Every job's encode needs NVENC's library; without it the encode step fails in ffmpeg's
    // generic words, which name no package.
    if (!CanLoad("libnvidia-encode.so.1")) {
      step.detail = "libnvidia-encode.so.1 is missing: " + std::string(kInstallNvencLibrary);
      return;
    }
    std::vector<std::string> seen = {"libnvidia-encode.so.1 loads"};
    seen.push_back(std::string("libnvcuvid.so.1") +
                   (CanLoad("libnvcuvid.so.1") ? " loads" : " is missing"));
    // Every NVIDIA process opens the control node first; without it no CUDA context opens.
    const fs::path control = fs::path(options_.dev_root) / "nvidiactl";
    if (!fs::exists(control)) {
      step.detail = "the device node " + control.string() + " is missing";
      return;
    }
    const std::string version = report_->nvidia_facts ? report_->nvidia_facts->driver_version : "";
    const std::optional<int> branch = probe::DriverBranch(version);
    const std::string driver_min = std::to_string(options_.config.driver_min);
    if (!branch || *branch < options_.config.driver_min) {
      step.detail = "the NVIDIA driver " +
                    (version.empty() ? std::string("(version unknown)") : version) +
                    " is older than PT_WORKER_DRIVER_MIN " + driver_min;
      return;
    }
    seen.push_back("driver " + version + " (branch " + std::to_string(*branch) +
                   " >= " + driver_min + ")");
    const Result<std::int64_t> free_mb = FreeVramMb();
    if (!free_mb) {
      step.detail = free_mb.error_message();
      return;
    }
    const std::string floor = std::to_string(options_.config.vram_floor_mb);
    if (*free_mb < options_.config.vram_floor_mb) {
      step.detail = "free VRAM " + std::to_string(*free_mb) +
                    " MiB is under PT_WORKER_VRAM_FLOOR_MB " + floor;
      return;
    }
    seen.push_back("free VRAM " + std::to_string(*free_mb) + " MiB (floor " + floor + ")");
    seen.push_back("nvidiactl present");
    step.ok = true;
    step.evidence = Joined(seen, "; ");
  }

  // FreeVramMb opens NVML and the GPU once, for the steps after the gate too, and reads the
  // GPU's free VRAM.
  Result<std::int64_t> FreeVramMb() {
    if (!nvml_) {
      Result<std::unique_ptr<NvmlLibrary>> nvml = NvmlLibrary::Load(options_.nvml_library);
      if (!nvml) return nvml.error().WithContext("NVML");
      nvml_ = std::move(*nvml);
    }
    Result<void*> device = nvml_->Device(contract_.devices[0].pci_address);
    if (!device) return device.error().WithContext("NVML");
    nvml_device_ = *device;
    const NvmlTelemetry telemetry = nvml_->Telemetry(nvml_device_);
    if (!telemetry.memory_free_bytes) return Unavailable("NVML does not say how much VRAM is free");
    return static_cast<std::int64_t>(*telemetry.memory_free_bytes / (1024 * 1024));
  }

  // 2. One-second encodes on this exact device with each encoder the probe claims. H.264 is
  // always tried: a worker that cannot encode it has nothing to do, and trying gives the
  // driver's own words for why. The H.264 encode is 1080p and kept as the pipeline's input.
  void Encodes(SelfTestStep& step, bool h264_only = false) {
    const SelfTestTarget target = Target();
    const std::set<std::string> encoders = Listed("-encoders");
    std::vector<std::string> seen;
    std::vector<std::string> failures;
    for (const EncodeCodec& codec : kEncodeCodecs) {
      if (codec.codec != "h264" && (h264_only || !Claims(codec.capability))) continue;
      const std::string encoder(EncoderFor(target, codec));
      if (!encoders.contains(encoder)) {
        downgraded_.push_back(std::string(codec.capability));
        seen.push_back(encoder + " is not in this ffmpeg's -encoders: " +
                       std::string(codec.capability) + " downgraded");
        continue;
      }
      const bool keep = codec.codec == "h264";
      const std::string output =
          keep ? (fs::path(options_.scratch_dir) / "encoded-h264.mp4").string() : "";
      const FfmpegRun run = Ffmpeg(EncodeArgv(options_.config.ffmpeg, target, codec,
                                              keep ? "1920x1080" : "1280x720", 1, output),
                                   "encode-" + encoder);
      if (!run.failure.empty()) {
        failures.push_back(encoder + ": " + run.failure);
        continue;
      }
      const EvidenceVerdict verdict = JudgeEvidence(run.sampled.record, {.encode = true});
      if (!verdict.ok) {
        failures.push_back(encoder + ": " + verdict.evidence);
        continue;
      }
      if (keep) pipeline_input_ = output;
      seen.push_back(encoder + ": " + verdict.evidence);
    }
    step.evidence = Joined(seen, "; ");
    step.detail = Joined(failures, "; ");
    step.ok = failures.empty() && !pipeline_input_.empty();
    if (step.detail.empty() && !step.ok)
      step.detail = "no encoder of this ffmpeg encodes H.264 on this device";
  }

  // 3. Decode, scale and encode at 1080p, all on the GPU, under the sampler; the VRAM it took
  // is the per-job budget the concurrency divides by.
  void Pipeline(SelfTestStep& step, SelfTestReport& result) {
    const SelfTestTarget target = Target();
    std::unique_ptr<NvmlWatch> watch;
    if (nvml_)
      watch = std::make_unique<NvmlWatch>(*nvml_, nvml_device_, std::chrono::milliseconds(50));
    const FfmpegRun run =
        Ffmpeg(PipelineArgv(options_.config.ffmpeg, target, pipeline_input_), "pipeline");
    if (watch) watch->Stop();
    if (!run.failure.empty()) {
      step.detail = run.failure;
      return;
    }
    const EvidenceVerdict verdict =
        JudgeEvidence(run.sampled.record, {.encode = true, .decode = true});
    step.evidence = verdict.evidence;
    if (!verdict.ok) {
      step.detail = verdict.evidence;
      return;
    }
    if (watch && watch->FreeBeforeBytes() && watch->LeastFreeBytes()) {
      const std::uint64_t before = *watch->FreeBeforeBytes();
      const std::uint64_t least = *watch->LeastFreeBytes();
      const double taken =
          before > least ? static_cast<double>(before - least) / (1024.0 * 1024.0) : 0.0;
      result.pipeline_vram_mb = std::round(taken);
      step.evidence +=
          "; VRAM free " + Megabytes(before) + " before, " + Megabytes(least) +
          " at the least: " + std::to_string(static_cast<std::int64_t>(std::round(taken))) +
          " MiB taken";
    }
    step.ok = true;
  }

  // 4. K encodes at once, K being the cap the driver states (or kSessionsWithoutStatedCap);
  // the number that succeeded becomes the session cap.
  void Sessions(SelfTestStep& step, SelfTestReport& result) {
    const SelfTestTarget target = Target();
    const std::int64_t k = options_.config.sessions_cap.value_or(
        contract_.max_sessions.value_or(kSessionsWithoutStatedCap));
    std::unique_ptr<NvmlWatch> watch;
    if (nvml_)
      watch = std::make_unique<NvmlWatch>(*nvml_, nvml_device_, std::chrono::milliseconds(100));
    std::vector<FfmpegRun> runs(static_cast<std::size_t>(k));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      threads.emplace_back([&, i] {
        runs[i] = Ffmpeg(SessionEncodeArgv(options_.config.ffmpeg, target),
                         "session-" + std::to_string(i));
      });
    }
    for (std::thread& thread : threads) thread.join();
    if (watch) watch->Stop();
    std::int64_t succeeded = 0;
    std::string first_failure;
    for (const FfmpegRun& run : runs) {
      // A run that ffmpeg failed is not judged; one that it finished is judged once.
      const std::optional<EvidenceVerdict> verdict =
          run.failure.empty() ? std::optional(JudgeEvidence(run.sampled.record, {.encode = true}))
                              : std::nullopt;
      if (verdict && verdict->ok) {
        ++succeeded;
      } else if (first_failure.empty()) {
        first_failure = verdict ? verdict->evidence : run.failure;
      }
    }
    step.evidence = std::to_string(succeeded) + " of " + std::to_string(k) +
                    " parallel encodes succeeded with evidence";
    if (watch)
      step.evidence +=
          "; NVML saw at most " + std::to_string(watch->MostSessions()) + " sessions at once";
    if (!first_failure.empty()) step.evidence += "; the first that failed: " + first_failure;
    if (succeeded == 0) {
      step.detail = "no parallel encode succeeded: " + first_failure;
      return;
    }
    result.sessions_cap = succeeded;
    step.ok = true;
  }

  // StreamFor gives a family's test stream: the one in --streams, else one this ffmpeg makes
  // with its software encoder, else nothing (and why in `why`).
  std::string StreamFor(const DecodeFamily& family, std::string& why) {
    if (!options_.streams_dir.empty()) {
      const fs::path given = fs::path(options_.streams_dir) / family.stream_file;
      if (fs::exists(given)) return given.string();
    }
    if (!Listed("-encoders").contains(std::string(family.software_encoder))) {
      why = "no stream: " + std::string(family.stream_file) +
            " is not in --streams and this ffmpeg has no " + std::string(family.software_encoder) +
            " to make it";
      return "";
    }
    const std::string made = (fs::path(options_.scratch_dir) / family.stream_file).string();
    const FfmpegRun run = Ffmpeg(StreamArgv(options_.config.ffmpeg, family, made),
                                 "stream-" + std::string(family.family));
    if (!run.failure.empty()) {
      why = "making the stream failed: " + run.failure;
      return "";
    }
    return made;
  }

  // 5. One decode-only pass per codec family the probe claims. Decoder work of the ffmpeg's
  // own PIDs proves each. A silent fallback to CPU decoding shows none.
  void DecodeMatrix(SelfTestStep& step) {
    const SelfTestTarget target = Target();
    const std::set<std::string> decoders = Listed("-decoders");
    std::vector<std::string> seen;
    std::vector<std::string> failures;
    for (const DecodeFamily& family : kDecodeFamilies) {
      if (!ClaimsAttribute(family.attribute)) continue;
      const std::string name(family.family);
      if (Nvidia() && !decoders.contains(std::string(family.nvidia_decoder))) {
        seen.push_back(name + ": " + std::string(family.nvidia_decoder) +
                       " is not in this ffmpeg's -decoders, not tested");
        continue;
      }
      std::string why;
      const std::string stream = StreamFor(family, why);
      if (stream.empty()) {
        seen.push_back(name + ": " + why + ", not tested");
        continue;
      }
      // The pass ends once the decoder's work shows; the loops only bound a decoder too slow
      // to show it at once.
      const FfmpegRun run = Ffmpeg(
          DecodeArgv(options_.config.ffmpeg, target, family, stream, kDecodeLoops),
          "decode-" + name,
          [](const EvidenceRecord& record) { return JudgeEvidence(record, {.decode = true}).ok; });
      if (!run.failure.empty()) {
        failures.push_back(name + ": " + run.failure);
        continue;
      }
      const EvidenceVerdict verdict = JudgeEvidence(run.sampled.record, {.decode = true});
      if (!verdict.ok) {
        failures.push_back(name + ": " + verdict.evidence);
        continue;
      }
      seen.push_back(name + ": " + verdict.evidence);
    }
    step.evidence = Joined(seen, "; ");
    step.detail = Joined(failures, "; ");
    step.ok = failures.empty();
  }

  const probe::ProbeResult& probe_;
  const ProbeContract& contract_;
  const SelfTestOptions& options_;
  const probe::DeviceReport* report_;
  // The sandbox of every ffmpeg it runs.
  Result<std::optional<Sandbox>> sandbox_;
  std::unique_ptr<NvmlLibrary> nvml_;
  void* nvml_device_ = nullptr;
  Clock::time_point step_started_;
  std::string step_name_;
  mutable std::mutex command_log_mutex_;
  std::optional<std::set<std::string>> encoders_;
  std::optional<std::set<std::string>> decoders_;
  std::vector<std::string> downgraded_;
  std::string pipeline_input_;
};

}  // namespace

SelfTestReport RunSelfTest(const probe::ProbeResult& probe, const ProbeContract& contract,
                           const SelfTestOptions& options) {
  return SelfTest(probe, contract, options).Run();
}

SelfTestReport RunCanary(const probe::ProbeResult& probe, const ProbeContract& contract,
                         const SelfTestOptions& options) {
  return SelfTest(probe, contract, options).Canary();
}

}  // namespace mc::worker
