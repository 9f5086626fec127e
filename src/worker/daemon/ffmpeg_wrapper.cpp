#include "worker/daemon/ffmpeg_wrapper.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_text.h"
#include "common/base/text.h"
#include "worker/daemon/capture.h"
#include "worker/daemon/ffmpeg_log.h"
#include "worker/daemon/ffmpeg_sandbox.h"
#include "worker/daemon/job_ffmpeg.h"
#include "worker/daemon/local_protocol.h"
#include "worker/daemon/local_socket.h"
#include "worker/evidence/argv_check.h"
#include "worker/evidence/plausibility_check.h"
#include "worker/probe_contract/capability_keys.h"
#include "worker/probe_contract/worker_config.h"
#include "worker/transcode/input_facts.h"
#include "worker/transcode/plan.h"
#include "worker/transcode/plan_device.h"
#include "worker/transcode/runner_command.h"

extern char** environ;

namespace mc::worker {
namespace {

constexpr std::chrono::milliseconds kAnswerDeadline{5000};

int Say(const std::string& line, int status) {
  std::cerr << kWrapperPrefix << line << std::endl;
  return status;
}

// Exec replaces the wrapper by the real program. So the pid the runner holds is the program's.
// Nothing stands between them.
int Exec(const std::string& program, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  return Say("cannot run " + program + ": " + std::strerror(errno), 127);
}

// The facts of the input and its duration, from one real ffprobe of it.
struct ProbedInput {
  worker::InputFacts facts;
  double duration_seconds = 0;
};

// The wrapper's own ffprobe of an input has a minute and 4 MiB of output. A file that takes more
// fails its own job.
constexpr CaptureOptions kProbeLimits{.deadline = std::chrono::seconds(60), .max_output = 4 << 20};

// The sandbox's environment for a program the wrapper runs.
SandboxEnvironment SandboxEnvironmentOf(const WrapperEnvironment& environment,
                                        const std::string& program) {
  return {.ffmpeg = program,
          .library_path = environment.library_path,
          .va_drivers_path = environment.va_drivers_path,
          .extra_paths = environment.sandbox_paths};
}

// MakeSandbox makes a sandbox of `paths`. The kernel may have no Landlock. Then the program runs
// without one with a note. Where the admin requires the sandbox, it does not run at all. Any other
// failure refuses it.
Result<std::optional<Sandbox>> MakeSandbox(const SandboxPaths& paths,
                                           const WrapperEnvironment& environment) {
  Result<Sandbox> sandbox = Sandbox::Make(paths);
  if (sandbox) return std::optional<Sandbox>(std::move(*sandbox));
  if (!sandbox.error().IsUnsupported() || environment.require_sandbox)
    return sandbox.error().WithContext("ffmpeg's sandbox");
  Say("note: ffmpeg runs without a sandbox: " + sandbox.error_message(), 0);
  return std::optional<Sandbox>();
}

// ExecSandboxed enters a sandbox that reads the files `args` name, then execs `program`. So the
// runner's ffprobe, a probe and a listing read an upload as a job's ffmpeg does.
int ExecSandboxed(const std::string& program, const std::vector<std::string>& args,
                  const WrapperEnvironment& environment) {
  Result<std::optional<Sandbox>> sandbox =
      MakeSandbox(ProbeSandboxPaths(args, SandboxEnvironmentOf(environment, program)), environment);
  if (!sandbox) return Say("refused: " + sandbox.error_message(), 1);
  if (*sandbox && !(*sandbox)->Enter())
    return Say(std::string("refused: the sandbox could not be entered: ") + std::strerror(errno),
               1);
  return Exec(program, args);
}

Result<ProbedInput> ProbeInput(const std::string& ffprobe, const std::string& path,
                               const WrapperEnvironment& environment) {
  Result<std::optional<Sandbox>> sandbox = MakeSandbox(
      ProbeSandboxPaths({path}, SandboxEnvironmentOf(environment, ffprobe)), environment);
  if (!sandbox) return sandbox.error();
  CaptureOptions limits = kProbeLimits;
  limits.sandbox = *sandbox ? &**sandbox : nullptr;
  std::vector<std::string> argv = {ffprobe, "-v", "error"};
  for (const std::string& option : FileInputOptions()) argv.push_back(option);
  for (const char* option : {"-print_format", "json", "-show_streams", "-show_format"})
    argv.emplace_back(option);
  argv.push_back(path);
  Result<std::string> json = CaptureOutput(argv, limits);
  if (!json) return json.error();
  Result<worker::InputFacts> facts = worker::ParseInputFacts(*json);
  if (!facts) return InvalidInput("ffprobe of " + path + ": " + facts.error_message());
  ProbedInput probed{.facts = *facts};
  const nlohmann::json value = ParseJsonOrDiscarded(*json);
  if (value.is_object() && value.contains("format") && value["format"].is_object()) {
    const nlohmann::json& format = value["format"];
    const nlohmann::json& name = format.value("format_name", nlohmann::json());
    if (Result<void> accepted = CheckDemuxer(name.is_string() ? name.get<std::string>() : "");
        !accepted)
      return accepted.error().WithContext(path);
    const nlohmann::json& duration = format.value("duration", nlohmann::json());
    if (duration.is_string()) {
      const std::optional<double> seconds = ParseDouble(duration.get<std::string>());
      if (seconds && std::isfinite(*seconds) && *seconds > 0) probed.duration_seconds = *seconds;
    }
  }
  return probed;
}

// NoteRefusal tells the worker that the wrapper refused a command itself, for its counters. The
// refusal stands whether or not the worker hears of it.
void NoteRefusal(LocalClient& worker, const std::string& reason) {
  if (Result<LocalAnswer> noted = worker.Ask(RefusedRequest{.reason = reason}, kAnswerDeadline);
      !noted)
    Say("the worker did not hear of the refusal: " + noted.error_message(), 0);
}

// The GPU the worker gives this ffmpeg. The error says why there is none.
Result<WrapperContext> AskForGpu(LocalClient& worker) {
  Result<LocalAnswer> context = worker.Ask(ContextRequest{}, kAnswerDeadline);
  if (!context) return Unavailable("the worker did not answer: " + context.error_message());
  if (!context->ok || !context->context)
    return Unavailable(context->message.empty() ? "the worker gave no GPU" : context->message);
  return *context->context;
}

// Probes each input the command decodes. It gives the first one's facts, which decide the decoder.
// It gives nullopt when the command decodes none.
Result<std::optional<ProbedInput>> ProbeInputs(const worker::RunnerCommand& command,
                                               const std::string& ffprobe,
                                               const WrapperEnvironment& environment) {
  std::optional<ProbedInput> input;
  for (const std::string& path : worker::InputsToProbe(command)) {
    Result<ProbedInput> probed = ProbeInput(ffprobe, path, environment);
    if (!probed) return probed.error();
    // The first input a video is decoded from decides the decoder.
    if (!input) input = *probed;
  }
  return input;
}

// The second tripwire on our own translation. Every video output names a hardware encoder this
// device states.
ArgvVerdict JudgePlanArgv(const worker::Plan& plan, const worker::PlanDevice& device,
                          const WrapperContext& gpu) {
  const ArgvDevice checked{.api = device.api,
                           .probe_module = gpu.probe_module,
                           .capabilities = CapabilityFlagsOf([&](std::string_view name) {
                             const auto found = device.flags.find(std::string(name));
                             return found != device.flags.end() && found->second;
                           })};
  return JudgeArgv(plan.argv, checked);
}

// MakeJobSandbox makes the job's sandbox. It reads its own input files and writes its own output
// files. Those are made here beforehand.
Result<std::optional<Sandbox>> MakeJobSandbox(const worker::RunnerCommand& command,
                                              const WrapperEnvironment& environment,
                                              const std::string& ffmpeg) {
  const SandboxPaths paths = JobSandboxPaths(command, SandboxEnvironmentOf(environment, ffmpeg));
  if (Result<void> made = MakeOutputFiles(command, paths); !made) return made.error();
  return MakeSandbox(paths, environment);
}

// Runs the plan's ffmpeg in the environment its argv assumes. The sampler watches it for evidence.
JobFfmpegRun RunPlan(const worker::Plan& plan, const worker::PlanDevice& device,
                     const WrapperContext& gpu, const WrapperEnvironment& environment, int runner,
                     const std::optional<Sandbox>& sandbox, std::chrono::seconds deadline) {
  // What the plan's argv assumes of the environment. That is CUDA's device order, for -gpu N.
  for (const std::string& entry : plan.environment) {
    const std::size_t equals = entry.find('=');
    if (equals != std::string::npos)
      setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
  }
  std::vector<std::string> argv = plan.argv;
  argv.insert(argv.begin(), gpu.ffmpeg.empty() ? environment.ffmpeg : gpu.ffmpeg);
  argv = WithFileInputs(argv);
  SamplerOptions sampler{
      .proc_root = gpu.proc_root.empty() ? "/proc" : gpu.proc_root,
      .nvidia_pci_address = device.api == "nvidia" ? device.pci_address : "",
      .nvml_library = gpu.nvml_library.empty() ? "libnvidia-ml.so.1" : gpu.nvml_library};
  return RunJobFfmpeg({.argv = WithLevelTags(argv),
                       .sampler = sampler,
                       .parent_pid = runner,
                       .sandbox = sandbox ? &*sandbox : nullptr,
                       .hardware_components = plan.hardware_components,
                       .deadline = deadline});
}

// The run's report for the worker. It says what the plan made and how the run went. It says whether
// the hardware evidence and the CPU time hold up.
WrapperRunReport ReportRun(const worker::Plan& plan, const JobFfmpegRun& run,
                           const std::optional<ProbedInput>& input, const ArgvVerdict& argv_verdict,
                           const WrapperContext& gpu) {
  WrapperRunReport report{.job_form = plan.job_form,
                          .output_height = plan.output_height,
                          .output_fps = plan.output_fps,
                          .encode_sessions = plan.encode_sessions,
                          .encoder = plan.encoder,
                          .exit_code = run.exit_code,
                          .wall_seconds = run.wall_seconds,
                          .cpu_seconds = run.record.cpu_seconds,
                          .notes = plan.notes};
  const worker::InputFacts facts = input ? input->facts : worker::InputFacts{};
  const auto [width, height] = ReportedOutputSize(plan.output_height, facts);
  report.width = width;
  report.height = height;
  report.source_width = std::min<std::int64_t>(facts.width, kMaxReportedPictureSide);
  report.source_height = std::min<std::int64_t>(facts.height, kMaxReportedPictureSide);
  report.source_codec = facts.video_codec;
  // What ffmpeg processed, by its own progress lines. The container's stated duration is a
  // fallback. The uploader wrote it, so it is used only where ffmpeg printed no progress.
  report.media_seconds = run.processed_seconds.value_or(input ? input->duration_seconds : 0);

  const EvidenceVerdict evidence = JudgeEvidence(run.record, argv_verdict.expectation);
  std::optional<CpuBaseline> baseline;
  if (gpu.baseline_cpu_seconds_per_media_second && gpu.baseline_pixels_per_frame)
    baseline =
        CpuBaseline{*gpu.baseline_cpu_seconds_per_media_second, *gpu.baseline_pixels_per_frame};
  // On the CPU, the same job would decode every input frame and encode every output one. Both are
  // counted at the encoder's rate. That is generous to the job, since decoding costs less. So a
  // downscaling job's fixed costs are not mistaken for an encode. The frames encoded are ffmpeg's
  // own count. The frames decoded are the input's rate over the media time.
  const double media = report.media_seconds;
  const double encoded_frames =
      run.processed_frames ? static_cast<double>(*run.processed_frames) : plan.output_fps * media;
  const double decoded_frames = facts.fps > 0 ? facts.fps * media : encoded_frames;
  const PlausibilityVerdict plausible = JudgePlausibility(
      {.tree_cpu_seconds = run.record.cpu_seconds,
       .media_seconds = media,
       .pixels_per_frame = static_cast<double>(width) * static_cast<double>(height) +
                           static_cast<double>(facts.width) * static_cast<double>(facts.height),
       .baseline = baseline,
       .max_fraction = gpu.plausible_cpu_fraction,
       .decoded_frames = decoded_frames,
       .decoded_pixels = static_cast<double>(facts.width) * static_cast<double>(facts.height),
       .encoded_frames = encoded_frames,
       .encoded_pixels = static_cast<double>(width) * static_cast<double>(height),
       .cpu_decode = !plan.hardware_decode});
  report.evidence_ok = evidence.ok && plausible.ok;
  report.evidence = evidence.evidence + "; " + plausible.evidence;
  report.gpu_failure = run.gpu_failure.value_or("");
  report.runner_died = run.runner_died;
  return report;
}

// The wrapper's exit status after the run. It is ffmpeg's own, unless:
// - the GPU failed it;
// - it ran past its deadline;
// - it left no hardware evidence.
// Each fails this job alone. The worker judges its GPU by its own canary, never by a job.
int ExitStatusOf(const JobFfmpegRun& run, const WrapperRunReport& report,
                 std::chrono::seconds deadline) {
  if (run.runner_died) return run.exit_code;
  if (run.deadline_passed)
    return Say("the job ran past its deadline of " + std::to_string(deadline.count()) +
                   " s for its media and ffmpeg was stopped; the job is failed",
               1);
  if (run.gpu_failure)
    return Say("the GPU failed: " + *run.gpu_failure +
                   "; the job is failed, never re-run on the CPU, and the worker tests its GPU "
                   "with its canary now",
               1);
  if (run.exit_code != 0) return run.exit_code;
  if (!report.evidence_ok)
    return Say("no hardware evidence (" + report.evidence +
                   "); the job is failed, never re-run on the CPU, and the worker tests its GPU "
                   "with its canary",
               1);
  return 0;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> ReportedOutputSize(std::int64_t plan_height,
                                                         const InputFacts& input) {
  // The input's sides are at most kMaxPictureSide (input_facts.h). A plan's height is an int. So
  // the product below holds in 64 bits. The quotient is then held to what a report carries.
  const std::int64_t height = std::clamp<std::int64_t>(plan_height > 0 ? plan_height : input.height,
                                                       0, kMaxReportedPictureSide);
  const std::int64_t width = input.height > 0
                                 ? static_cast<std::int64_t>(input.width) * height / input.height
                                 : static_cast<std::int64_t>(input.width);
  return {std::clamp<std::int64_t>(width, 0, kMaxReportedPictureSide), height};
}

WrapperEnvironment WrapperEnvironmentFrom(
    const std::function<std::optional<std::string>(std::string_view)>& variable) {
  WrapperEnvironment environment;
  if (std::optional<std::string> socket = variable("PT_WORKER_SOCKET"))
    environment.socket = *socket;
  if (std::optional<std::string> ffmpeg = variable("PT_WORKER_FFMPEG"); ffmpeg && !ffmpeg->empty())
    environment.ffmpeg = *ffmpeg;
  if (std::optional<std::string> ffprobe = variable("PT_WORKER_FFPROBE");
      ffprobe && !ffprobe->empty())
    environment.ffprobe = *ffprobe;
  environment.library_path = variable("LD_LIBRARY_PATH").value_or("");
  environment.va_drivers_path = variable("LIBVA_DRIVERS_PATH").value_or("");
  // The sandbox's settings are the worker's own, which the runner passes on. Settings that do not
  // read require the sandbox. The worker would not have started with them.
  Result<WorkerConfig> config = LoadConfig(variable, {});
  environment.sandbox_paths = config ? config->sandbox_paths : "";
  environment.require_sandbox = !config || config->require_sandbox;
  return environment;
}

int RunFfprobeWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment) {
  std::vector<std::string> boxed = FileInputOptions();
  boxed.insert(boxed.end(), args.begin(), args.end());
  return ExecSandboxed(environment.ffprobe, boxed, environment);
}

int RunFfmpegWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment) {
  const int runner = getppid();
  // The wrapper hears at once when the runner dies; RunJobFfmpeg then kills ffmpeg. The check after
  // this line sees a runner that died before it.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != runner) return Say("the runner is gone", 1);
  Result<worker::RunnerCommand> command = worker::ParseRunnerCommand(args);
  if (!command) return Say("refused: " + command.error_message(), 1);
  const worker::CommandKind kind = worker::KindOf(*command);
  // Listings and probes need no GPU and no worker. The runner asks for them at its start.
  if (kind == worker::CommandKind::kListing || kind == worker::CommandKind::kProbe)
    return ExecSandboxed(environment.ffmpeg, args, environment);

  if (environment.socket.empty())
    return Say("refused: PT_WORKER_SOCKET is not set, so no worker gives this ffmpeg a GPU", 1);
  Result<LocalClient> worker = LocalClient::Connect(environment.socket);
  if (!worker) return Say("refused: the worker is not running: " + worker.error_message(), 1);
  Result<WrapperContext> context = AskForGpu(*worker);
  if (!context) return Say("refused: " + context.error_message(), 1);
  const WrapperContext& gpu = *context;
  Result<worker::PlanDevice> device = worker::ParsePlanDevice(JsonText(gpu.device));
  if (!device) return Say("refused: the worker's device: " + device.error_message(), 1);
  Result<std::optional<ProbedInput>> input =
      ProbeInputs(*command, gpu.ffprobe.empty() ? environment.ffprobe : gpu.ffprobe, environment);
  if (!input) return Say("refused: " + input.error_message(), 1);

  const worker::Plan plan =
      worker::PlanCommand(*command, *device, *input ? std::optional((*input)->facts) : std::nullopt,
                          {.nvenc_preset = gpu.nvenc_preset,
                           .cuda_ordinal = gpu.cuda_ordinal,
                           .render_node = gpu.render_node});
  if (plan.kind == worker::PlanKind::kRefuse) {
    NoteRefusal(*worker, plan.refusal);
    return Say("refused: " + plan.refusal, 1);
  }
  Result<std::optional<Sandbox>> sandbox =
      MakeJobSandbox(*command, environment, gpu.ffmpeg.empty() ? environment.ffmpeg : gpu.ffmpeg);
  if (!sandbox) return Say("refused: " + sandbox.error_message(), 1);
  if (plan.kind == worker::PlanKind::kPassThrough) {
    worker = Result<LocalClient>(Unavailable("closed"));
    // Work that is no video encode still reads the upload: a storyboard, audio, a copy.
    if (*sandbox && !(*sandbox)->Enter())
      return Say("refused: ffmpeg's sandbox: Landlock refused", 1);
    return Exec(environment.ffmpeg, WithFileInputs(args));
  }
  const ArgvVerdict argv_verdict = JudgePlanArgv(plan, *device, gpu);
  if (!argv_verdict.ok) {
    NoteRefusal(*worker, argv_verdict.reason);
    return Say("refused: " + argv_verdict.reason, 1);
  }
  const double stated_seconds = *input ? (*input)->duration_seconds : 0;
  if (const std::string timing = StatedTimingProblem(*input ? (*input)->facts.frame_count : 0,
                                                     stated_seconds, plan.output_fps);
      !timing.empty()) {
    NoteRefusal(*worker, timing);
    return Say("refused: " + timing, 1);
  }
  const std::chrono::seconds deadline = JobDeadline(stated_seconds);
  Result<LocalAnswer> slot =
      worker->Ask(AcquireRequest{.sessions = std::max(1, plan.encode_sessions),
                                 .pid = getpid(),
                                 .job_form = plan.job_form,
                                 .output_height = plan.output_height},
                  kAnswerDeadline);
  if (!slot) return Say("refused: the worker did not answer: " + slot.error_message(), 1);
  if (!slot->ok) return Say("refused: " + slot->message, 1);
  for (const std::string& note : plan.notes) Say("note: " + note, 0);

  const JobFfmpegRun run = RunPlan(plan, *device, gpu, environment, runner, *sandbox, deadline);
  const WrapperRunReport report = ReportRun(plan, run, *input, argv_verdict, gpu);
  // The report makes the worker test its GPU with its canary. It does so after a run that failed or
  // fell short of evidence. If the worker cannot take the report, the job still fails below.
  if (Result<LocalAnswer> taken = worker->Ask(FinishedRequest{.report = report}, kAnswerDeadline);
      !taken)
    Say("the worker did not take this run's report: " + taken.error_message(), 0);
  return ExitStatusOf(run, report, deadline);
}

}  // namespace mc::worker
