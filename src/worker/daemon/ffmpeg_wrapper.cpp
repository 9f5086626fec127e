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

#include "common/base/json_text.h"
#include "common/base/text.h"
#include "worker/daemon/ffmpeg_log.h"
#include "worker/daemon/ffmpeg_sandbox.h"
#include "worker/daemon/job_ffmpeg.h"
#include "worker/daemon/local_protocol.h"
#include "worker/daemon/local_socket.h"
#include "worker/evidence/argv_gate.h"
#include "worker/evidence/plausibility_gate.h"
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

// Exec replaces the wrapper by the real program, so that the pid the runner holds is the
// program's and nothing stands between them.
int Exec(const std::string& program, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  return Say("cannot run " + program + ": " + std::strerror(errno), 127);
}

// Capture runs a short program and gives its stdout.
Result<std::string> Capture(const std::vector<std::string>& argv) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return Internal(std::string("a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (spawned != 0) {
    close(out[0]);
    return Unavailable("cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  std::string text;
  char buffer[8192];
  ssize_t got = 0;
  while ((got = read(out[0], buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR)) {
    if (got > 0) text.append(buffer, static_cast<std::size_t>(got));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Unavailable(argv[0] + " failed on " + argv.back());
  return text;
}

// The facts of the input and its duration, from one real ffprobe of it.
struct ProbedInput {
  worker::InputFacts facts;
  double duration_seconds = 0;
};

Result<ProbedInput> ProbeInput(const std::string& ffprobe, const std::string& path) {
  Result<std::string> json = Capture(
      {ffprobe, "-v", "error", "-print_format", "json", "-show_streams", "-show_format", path});
  if (!json) return json.failure();
  Result<worker::InputFacts> facts = worker::ParseInputFacts(*json);
  if (!facts) return InvalidInput("ffprobe of " + path + ": " + facts.error());
  ProbedInput probed{.facts = *facts};
  const nlohmann::json value = nlohmann::json::parse(*json, nullptr, false);
  if (value.is_object() && value.contains("format") && value["format"].is_object()) {
    const nlohmann::json& duration = value["format"].value("duration", nlohmann::json());
    if (duration.is_string()) {
      const std::optional<double> seconds = ParseDouble(duration.get<std::string>());
      if (seconds && std::isfinite(*seconds) && *seconds > 0) probed.duration_seconds = *seconds;
    }
  }
  return probed;
}

// NoteRefusal tells the worker that the wrapper refused a command itself, for its counters;
// the refusal stands whether or not the worker hears of it.
void NoteRefusal(LocalClient& worker, const std::string& reason) {
  if (Result<LocalAnswer> noted = worker.Ask(RefusedRequest{.reason = reason}, kAnswerDeadline);
      !noted)
    Say("the worker did not hear of the refusal: " + noted.error(), 0);
}

// The GPU the worker gives this ffmpeg; the error says why there is none.
Result<WrapperContext> AskForGpu(LocalClient& worker) {
  Result<LocalAnswer> context = worker.Ask(ContextRequest{}, kAnswerDeadline);
  if (!context) return Unavailable("the worker did not answer: " + context.error());
  if (!context->ok || !context->context)
    return Unavailable(context->message.empty() ? "the worker gave no GPU" : context->message);
  return *context->context;
}

// Probes each input the command decodes; gives the first one's facts, which decide the
// decoder, or nullopt when the command decodes none.
Result<std::optional<ProbedInput>> ProbeInputs(const worker::RunnerCommand& command,
                                               const std::string& ffprobe) {
  std::optional<ProbedInput> input;
  for (const std::string& path : worker::InputsToProbe(command)) {
    Result<ProbedInput> probed = ProbeInput(ffprobe, path);
    if (!probed) return probed.failure();
    // The first input a video is decoded from is the one whose facts decide the decoder.
    if (!input) input = *probed;
  }
  return input;
}

// The second tripwire on our own translation: every video output names a hardware encoder
// this device states.
ArgvVerdict JudgePlanArgv(const worker::Plan& plan, const worker::PlanDevice& device,
                          const WrapperContext& gpu) {
  const GateDevice gate{.api = device.api,
                        .probe_module = gpu.probe_module,
                        .capabilities = CapabilityFlagsOf([&](std::string_view name) {
                          const auto found = device.flags.find(std::string(name));
                          return found != device.flags.end() && found->second;
                        })};
  return JudgeArgv(plan.argv, gate);
}

// BoxFor makes the job's sandbox. Where the kernel has no Landlock, ffmpeg runs unboxed with a
// note, or not at all where the admin requires the box; any other failure refuses the job.
Result<std::optional<Sandbox>> BoxFor(const worker::RunnerCommand& command,
                                      const WrapperEnvironment& environment,
                                      const std::string& ffmpeg) {
  Result<Sandbox> sandbox =
      Sandbox::Make(JobSandboxPaths(command, {.ffmpeg = ffmpeg,
                                              .library_path = environment.library_path,
                                              .va_drivers_path = environment.va_drivers_path,
                                              .extra_paths = environment.sandbox_paths}));
  if (sandbox) return std::optional<Sandbox>(std::move(*sandbox));
  if (!sandbox.failure().IsUnsupported() || environment.require_sandbox)
    return sandbox.failure().WithContext("ffmpeg's sandbox");
  Say("note: ffmpeg runs without a sandbox: " + sandbox.error(), 0);
  return std::optional<Sandbox>();
}

// Runs the plan's ffmpeg in the environment its argv assumes, sampled for evidence.
JobFfmpegRun RunPlan(const worker::Plan& plan, const worker::PlanDevice& device,
                     const WrapperContext& gpu, const WrapperEnvironment& environment, int runner,
                     const std::optional<Sandbox>& sandbox) {
  // What the plan's argv assumes of the environment (CUDA's device order, for -gpu N).
  for (const std::string& entry : plan.environment) {
    const std::size_t equals = entry.find('=');
    if (equals != std::string::npos)
      setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
  }
  std::vector<std::string> argv = plan.argv;
  argv.insert(argv.begin(), gpu.ffmpeg.empty() ? environment.ffmpeg : gpu.ffmpeg);
  SamplerOptions sampler{
      .proc_root = gpu.proc_root.empty() ? "/proc" : gpu.proc_root,
      .nvidia_pci_address = device.api == "nvidia" ? device.pci_address : "",
      .nvml_library = gpu.nvml_library.empty() ? "libnvidia-ml.so.1" : gpu.nvml_library};
  return RunJobFfmpeg({.argv = WithLevelTags(argv),
                       .sampler = sampler,
                       .parent_pid = runner,
                       .sandbox = sandbox ? &*sandbox : nullptr});
}

// The run's report for the worker: what the plan made, how the run went, and whether the
// hardware evidence and the CPU time it took hold up.
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
  // What ffmpeg processed, by its own progress lines; the duration the container states, which
  // the uploader wrote, only where ffmpeg printed no progress.
  report.media_seconds = run.processed_seconds.value_or(input ? input->duration_seconds : 0);

  const EvidenceVerdict evidence = JudgeEvidence(run.record, argv_verdict.expectation);
  std::optional<CpuBaseline> baseline;
  if (gpu.baseline_cpu_seconds_per_media_second && gpu.baseline_pixels_per_frame)
    baseline =
        CpuBaseline{*gpu.baseline_cpu_seconds_per_media_second, *gpu.baseline_pixels_per_frame};
  // The same job on the CPU would decode every input picture and encode every output one;
  // both are counted at the encoder's rate, which is generous to the job (decoding costs
  // less), so that a downscaling job's fixed costs are not mistaken for an encode.
  const double job_pixels = static_cast<double>(width) * static_cast<double>(height) +
                            static_cast<double>(facts.width) * static_cast<double>(facts.height);
  const PlausibilityVerdict plausible =
      JudgePlausibility({.tree_cpu_seconds = run.record.cpu_seconds,
                         .media_seconds = report.media_seconds,
                         .pixels_per_frame = job_pixels,
                         .baseline = baseline,
                         .max_fraction = gpu.plausible_cpu_fraction});
  report.evidence_ok = evidence.ok && plausible.ok;
  report.evidence = evidence.evidence + "; " + plausible.evidence;
  report.gpu_failure = run.gpu_failure.value_or("");
  report.runner_died = run.runner_died;
  return report;
}

// The wrapper's exit status after the run: ffmpeg's own, unless the GPU failed or the run
// left no hardware evidence.
int ExitStatusOf(const JobFfmpegRun& run, const WrapperRunReport& report) {
  if (run.runner_died) return run.exit_code;
  if (run.gpu_failure)
    return Say("the GPU failed: " + *run.gpu_failure + "; the worker is now GPU_UNAVAILABLE", 1);
  if (run.exit_code != 0) return run.exit_code;
  if (!report.evidence_ok)
    return Say(
        "no hardware evidence (" + report.evidence +
            "); the job is failed and the worker is now GPU_UNAVAILABLE, never re-run on the CPU",
        1);
  return 0;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> ReportedOutputSize(std::int64_t plan_height,
                                                         const InputFacts& input) {
  // The input's sides are at most kMaxPictureSide (input_facts.h) and a plan's height an int,
  // so the product below holds in 64 bits; the quotient is then held to what a report carries.
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
  // The box's settings are the worker's own, which the runner passes on; settings that do not
  // read (the worker would not have started with them) require the box.
  Result<WorkerConfig> config = LoadConfig(variable, {});
  environment.sandbox_paths = config ? config->sandbox_paths : "";
  environment.require_sandbox = !config || config->require_sandbox;
  return environment;
}

int RunFfprobeWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment) {
  return Exec(environment.ffprobe, args);
}

int RunFfmpegWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment) {
  const int runner = getppid();
  // The wrapper hears at once when the runner dies (RunJobFfmpeg then kills ffmpeg); a runner
  // that died before this line is seen by the check after it.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != runner) return Say("the runner is gone", 1);
  Result<worker::RunnerCommand> command = worker::ParseRunnerCommand(args);
  if (!command) return Say("refused: " + command.error(), 1);
  const worker::CommandKind kind = worker::KindOf(*command);
  // Listings and probes need no GPU and no worker: the runner asks for them at its start.
  if (kind == worker::CommandKind::kListing || kind == worker::CommandKind::kProbe)
    return Exec(environment.ffmpeg, args);

  if (environment.socket.empty())
    return Say("refused: PT_WORKER_SOCKET is not set, so no worker gives this ffmpeg a GPU", 1);
  Result<LocalClient> worker = LocalClient::Connect(environment.socket);
  if (!worker) return Say("refused: the worker is not running: " + worker.error(), 1);
  Result<WrapperContext> context = AskForGpu(*worker);
  if (!context) return Say("refused: " + context.error(), 1);
  const WrapperContext& gpu = *context;
  Result<worker::PlanDevice> device = worker::ParsePlanDevice(JsonText(gpu.device));
  if (!device) return Say("refused: the worker's device: " + device.error(), 1);
  Result<std::optional<ProbedInput>> input =
      ProbeInputs(*command, gpu.ffprobe.empty() ? environment.ffprobe : gpu.ffprobe);
  if (!input) return Say("refused: " + input.error(), 1);

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
      BoxFor(*command, environment, gpu.ffmpeg.empty() ? environment.ffmpeg : gpu.ffmpeg);
  if (!sandbox) return Say("refused: " + sandbox.error(), 1);
  if (plan.kind == worker::PlanKind::kPassThrough) {
    worker = Result<LocalClient>(Unavailable("closed"));
    // Work that is no video encode (a storyboard, audio, a copy) still reads the upload.
    if (*sandbox && !(*sandbox)->Enter())
      return Say("refused: ffmpeg's sandbox: Landlock refused", 1);
    return Exec(environment.ffmpeg, args);
  }
  const ArgvVerdict argv_verdict = JudgePlanArgv(plan, *device, gpu);
  if (!argv_verdict.ok) {
    NoteRefusal(*worker, argv_verdict.reason);
    return Say("refused: " + argv_verdict.reason, 1);
  }
  Result<LocalAnswer> slot =
      worker->Ask(AcquireRequest{.sessions = std::max(1, plan.encode_sessions),
                                 .pid = getpid(),
                                 .job_form = plan.job_form,
                                 .output_height = plan.output_height},
                  kAnswerDeadline);
  if (!slot) return Say("refused: the worker did not answer: " + slot.error(), 1);
  if (!slot->ok) return Say("refused: " + slot->message, 1);
  for (const std::string& note : plan.notes) Say("note: " + note, 0);

  const JobFfmpegRun run = RunPlan(plan, *device, gpu, environment, runner, *sandbox);
  const WrapperRunReport report = ReportRun(plan, run, *input, argv_verdict, gpu);
  // The report is what moves the worker to GPU_UNAVAILABLE after a run without evidence; if
  // the worker cannot take it, the job still fails below and the line says so.
  if (Result<LocalAnswer> taken = worker->Ask(FinishedRequest{.report = report}, kAnswerDeadline);
      !taken)
    Say("the worker did not take this run's report: " + taken.error(), 0);
  return ExitStatusOf(run, report);
}

}  // namespace mc::worker
