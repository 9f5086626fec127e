#include "cli/worker_run.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <variant>

#include "cli/daemon_support.h"
#include "cli/peertube_pair.h"
#include "common/base/self_executable.h"
#include "common/base/text.h"
#include "common/http/url.h"
#include "common/peertube/plain_http.h"
#include "pool/service/control_token.h"
#include "probe/gpu/gpu_selector.h"
#include "probe/pipeline/probe_pipeline.h"
#include "worker/daemon/local_socket.h"
#include "worker/daemon/registration.h"
#include "worker/daemon/runner_config.h"
#include "worker/daemon/runner_supervisor.h"
#include "worker/daemon/worker_daemon.h"
#include "worker/probe_contract/landlock.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/self_test/self_test_state.h"
#include "worker/status/worker_state.h"

namespace mc {
namespace fs = std::filesystem;

namespace {

// TakeOrRunSelfTest takes a green report this young, else runs the test now. It keeps the
// report where `worker status` and the next gate read it.
std::optional<worker::SelfTestReport> TakeOrRunSelfTest(const SelfTestGateOptions& options,
                                                        const probe::ProbeResult& probe,
                                                        const worker::ProbeContract& contract) {
  const std::string device =
      contract.devices.empty() ? options.self_test.config.gpu : contract.devices[0].name;
  const std::string path = worker::SelfTestStatePath(options.state_dir, device);
  if (options.max_age.count() > 0 && !contract.devices.empty()) {
    Result<worker::SelfTestReport> saved =
        worker::LoadSelfTestOf(path, contract.devices[0], std::chrono::system_clock::now());
    if (!saved && !saved.error().IsNotFound()) Log(options.command + ": " + saved.error_message());
    if (saved && saved->ok && saved->age_seconds &&
        *saved->age_seconds <= options.max_age.count()) {
      Log(options.command + ": taking the self-test of " + saved->ts);
      return *saved;
    }
  }
  Log(options.command + ": running the self-test on " + device);
  worker::SelfTestOptions test = options.self_test;
  std::string scratch =
      (fs::temp_directory_path() / "media-capabilities-self-test.XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return std::nullopt;
  test.scratch_dir = scratch;
  worker::SelfTestReport report = worker::RunSelfTest(probe, contract, test);
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  // A test cut short by a stop says nothing of the GPU: the last report stays.
  if (test.stop != nullptr && test.stop->load()) return report;
  if (Result<void> saved = worker::SaveSelfTest(path, report); !saved)
    Log(options.command + ": the self-test's report was not kept: " + saved.error_message());
  return report;
}

// What crosses a worker's connection to PeerTube, and the flag that allows it in clear.
constexpr const char* kWorkerSecrets =
    "the registration token, the runner's token and its jobs' tokens";
constexpr const char* kAllowPlainHttp = "--allow-plain-http";

// CheckServerUrl refuses plain http:// beyond this host unless allowed.
Result<void> CheckServerUrl(const std::string& url, bool allowed) {
  Result<http::Url> parsed = http::ParseUrl(url);
  if (!parsed) return InvalidInput("--url: " + parsed.error_message());
  if (Result<void> checked =
          peertube::CheckPlainHttp(*parsed, allowed, kWorkerSecrets, kAllowPlainHttp);
      !checked) {
    return checked.error().WithContext("--url");
  }
  return Ok();
}

// SayPlainHttp runs once a worker is registered. It says in the log what an allowed
// http:// beyond this host carries in clear.
void SayPlainHttp(const std::string& url) {
  Result<http::Url> parsed = http::ParseUrl(url);
  if (!parsed) return;
  if (const std::string warning =
          peertube::PlainHttpWarning(*parsed, kWorkerSecrets, kAllowPlainHttp);
      !warning.empty()) {
    Log("worker: " + warning);
  }
}

// CheckSandbox says in the log whether the jobs' ffmpeg runs in its sandbox. The status document
// and `worker doctor` say it the same way. It refuses to start without one where the settings
// require it.
Result<void> CheckSandbox(const worker::WorkerConfig& config) {
  const worker::FfmpegSandbox sandbox =
      worker::FfmpegSandboxOf(worker::LandlockAbi(), config.require_sandbox);
  if (!sandbox.ffmpeg_boxed && sandbox.required)
    return Unsupported(
        "the kernel has no Landlock, and PT_WORKER_REQUIRE_SANDBOX asks for "
        "ffmpeg's sandbox");
  Log("worker run: ffmpeg's sandbox: " + std::string(worker::SandboxVerdict(sandbox)) + ": " +
      worker::SandboxFinding(sandbox));
  return Ok();
}

// NotRegistered answers a worker with no registration and no token to make one. The
// deployments register with `worker register` before `worker run` starts. So the running
// worker never holds the registration token.
Error NotRegistered(const std::string& path) {
  return NotFound("the worker is not registered (no " + path +
                  ") and was given no --registration-token-file: register it first with "
                  "`media-capabilities worker register --url URL --registration-token-file FILE` "
                  "and the same --state-dir, --gpu and runner name (docs/worker/worker.md)");
}

// CheckRegistrationAtHand refuses at once, before the self-test, a worker that could never
// register. It has no registration in the state directory and no token file to make one.
Result<void> CheckRegistrationAtHand(const std::string& state_dir,
                                     const std::string& registration_token_file) {
  if (!registration_token_file.empty()) return Ok();
  const std::string path = worker::RegistrationPath(state_dir);
  Result<worker::Registration> existing = worker::LoadRegistration(path);
  if (existing) return Ok();
  if (!existing.error().IsNotFound()) return existing.error();
  return NotRegistered(path);
}

Result<worker::Registration> EnsureRegistered(const WorkerRegisterOptions& options) {
  const std::string path = worker::RegistrationPath(options.state_dir);
  Result<worker::Registration> existing = worker::LoadRegistration(path);
  const std::string url = http::UnderBase(options.server_url, "");
  if (existing) {
    if (!url.empty() && existing->server_url != url)
      return Conflict("this worker is registered with " + existing->server_url + ", not " + url +
                      " (remove " + path + " to register anew)");
    return existing;
  }
  if (!existing.error().IsNotFound()) return existing.error();
  if (options.registration_token_file.empty()) return NotRegistered(path);
  if (url.empty()) return InvalidInput("--url is needed to register");
  if (Result<void> checked = CheckServerUrl(url, options.allow_plain_http); !checked)
    return checked.error();
  Result<std::string> token = worker::ReadTokenFile(options.registration_token_file);
  if (!token) return token.error();
  Result<worker::Registration> registration =
      worker::RegisterRunner({.server_url = url,
                              .registration_token = *token,
                              .runner_name = options.runner_name,
                              .description = options.description});
  if (!registration) return registration.error();
  if (Result<void> saved = worker::SaveRegistration(path, *registration); !saved)
    return saved.error();
  Log("worker: registered with " + url + " as " + registration->runner_name + " (runner " +
      std::to_string(registration->runner_id) + ")");
  return registration;
}

}  // namespace

std::string RunnerName(const std::string& configured, const std::string& device) {
  if (!configured.empty()) return configured;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + device;
}

Result<TestedGpu> PassSelfTestGate(const SelfTestGateOptions& options) {
  const probe::ProbeResult probe = probe::ProbeGpus(options.probe);
  const worker::WorkerConfig& config = options.self_test.config;
  TestedGpu tested{.contract = worker::ContractFor(probe, {config.gpu, config.probe_module})};
  std::vector<probe::Gpu> gpus;
  for (const probe::DeviceReport& report : probe.reports) gpus.push_back(report.gpu);
  tested.place = probe::SelectGpu(gpus, config.gpu).value_or(0);
  std::optional<worker::SelfTestReport> report = TakeOrRunSelfTest(options, probe, tested.contract);
  if (!report) return Unavailable("the self-test could not run: no scratch directory");
  if (!report->ok) return Unavailable("the self-test failed: " + report->detail);
  tested.self_test = std::move(*report);
  return tested;
}

int RunWorkerRegister(const WorkerRegisterOptions& options) {
  Result<worker::Registration> registration = EnsureRegistered(options);
  if (!registration) {
    std::cerr << "worker register: " << registration.error_message() << "\n";
    return 1;
  }
  SayPlainHttp(registration->server_url);
  std::cout << "registered with " << registration->server_url << " as " << registration->runner_name
            << " (runner " << registration->runner_id << ")\n";
  return 0;
}

namespace {

// The runner's ffmpeg and ffprobe: links in `bin` to this binary. It wraps the real ones.
Result<void> LinkWrappers(const fs::path& bin) {
  const Result<fs::path> self = SelfExecutablePath();
  const fs::path target = self ? *self : fs::path("media-capabilities");
  std::error_code error;
  fs::create_directories(bin, error);
  for (const char* name : {"ffmpeg", "ffprobe"}) {
    fs::remove(bin / name, error);
    fs::create_symlink(target, bin / name, error);
    if (error) return Internal("cannot link \"" + (bin / name).string() + "\": " + error.message());
  }
  return Ok();
}

// The most jobs the runner takes at once. It is the GPU's sessions less the reserve, at most
// the configured bound. It is 8 where the sessions are not known.
std::int64_t RunnerConcurrency(const worker::WorkerConfig& config,
                               const worker::SelfTestReport& self_test,
                               const worker::ProbeContract& contract) {
  const std::optional<std::int64_t> cap =
      self_test.sessions_cap ? self_test.sessions_cap : contract.max_sessions;
  std::int64_t most = cap ? std::max<std::int64_t>(1, *cap - config.sessions_reserve) : 8;
  if (config.concurrency_max) most = std::min(most, *config.concurrency_max);
  return most;
}

// The runner's IPC socket under its XDG_DATA_HOME.
fs::path RunnerSocket(const fs::path& data_home, const std::string& runner_id) {
  return data_home / "peertube-runner-nodejs" / runner_id / "peertube-runner.sock";
}

// The runner's XDG_DATA_HOME. Its IPC socket lives there. A Unix socket's path holds at most
// 107 bytes; the kernel cuts a longer one short. A runner started after a killed one then
// hangs on the socket it cannot find. So a deep state directory gets a short folder of its
// own for that.
fs::path RunnerDataHome(const fs::path& runner_root, const std::string& runner_id,
                        const std::string& state_dir) {
  fs::path data_home = runner_root / "data";
  if (RunnerSocket(data_home, runner_id).string().size() > 100) {
    // Short enough that the socket below it fits too: /tmp/mc-runner-1a2b3c4d/... is 88 bytes.
    char name[32];
    std::snprintf(
        name, sizeof name, "mc-runner-%08x",
        static_cast<unsigned>(std::hash<std::string>{}(fs::absolute(state_dir).string())));
    data_home = fs::temp_directory_path() / name;
    std::error_code error;
    fs::create_directories(data_home, error);
    fs::permissions(data_home, fs::perms::owner_all, error);
    Log("worker run: the runner's data folder is " + data_home.string() +
        ", since the state directory is too deep for its socket");
  }
  return data_home;
}

// The versions of the server and the runner, said in the log. The worker does not start
// with a pair known to break. Nor does it start with a runner that does not run.
Result<worker::PeerTubeVersions> CheckPeerTubePair(const std::string& server_url,
                                                   const std::vector<std::string>& runner) {
  const PeerTubePair pair = ReadPeerTubePair(server_url, runner);
  if (!pair.runner_runs) return InvalidInput("the runner does not run: " + pair.runner_error);
  if (pair.verdict.support == peertube::Support::kBreaks)
    return InvalidInput("PeerTube " + pair.server->text + ": " + pair.verdict.advice);
  Log("worker run: " + JoinLines(pair.Text(server_url, Joined(runner, " "))));
  return pair.ForStatus();
}

std::optional<http::ServerTlsFiles> ControlTls(const WorkerRunOptions& options) {
  if (options.control_tls_cert.empty()) return std::nullopt;
  return http::ServerTlsFiles{.certificate_file = options.control_tls_cert,
                              .key_file = options.control_tls_key};
}

// Starts the worker's daemon and waits for its first status. The daemon holds the status,
// the control API, the gate and the socket.
Result<std::unique_ptr<worker::WorkerDaemon>> StartDaemon(
    const WorkerRunOptions& options, const worker::GatherOptions& gather,
    const std::string& control_token, const std::string& server_url,
    const worker::PeerTubeVersions& peertube) {
  Result<std::unique_ptr<worker::WorkerDaemon>> daemon =
      worker::WorkerDaemon::Start({.gather = gather,
                                   .state_dir = options.state_dir,
                                   .status_listen = options.status_listen,
                                   .control_listen = options.control_listen,
                                   .control_token = control_token,
                                   .control_tls = ControlTls(options),
                                   .gate_listen = options.gate_listen,
                                   .server_url = server_url,
                                   .ffprobe = ResolveProgram(options.ffprobe),
                                   .drain_timeout = options.drain_timeout,
                                   .registered = true,
                                   .peertube = peertube,
                                   .log = Log,
                                   .canary = options.self_test});
  if (!daemon) return daemon;
  (*daemon)->WaitGathered(std::chrono::seconds(120));
  const std::string control = (*daemon)->control_address();
  Log("worker run: status on " + (*daemon)->status_address() + ", control API " +
      (control.empty() ? "off"
                       : "on " + control + (options.control_tls_cert.empty() ? "" : " (TLS)")) +
      ", gate on " + (*daemon)->gate_address() + ", socket " + (*daemon)->socket_path());
  return daemon;
}

// Waits for SIGTERM or SIGINT, then drains the worker and stops the runner.
void WaitAndStop(StopSignals& stop, std::unique_ptr<worker::WorkerDaemon>& daemon,
                 worker::RunnerSupervisor& runner, std::chrono::seconds drain_timeout) {
  const int received = stop.Wait();
  Log(std::string("worker run: ") + (received == SIGTERM ? "SIGTERM" : "SIGINT") +
      "; draining before the runner stops");
  daemon->Drain();
  if (!daemon->WaitIdle(drain_timeout))
    Log("worker run: the drain timed out; the runner is stopped with its jobs, which PeerTube "
        "puts back");
  runner.Stop();
  daemon.reset();
  Log("worker run: stopped");
}

// A worker killed mid-job left its jobs' tokens. They go back to PeerTube's queue first of
// all. The self-test may take a minute. Only a worker registered before has any.
void HandBackJobsOfALastRun(const WorkerRunOptions& options) {
  const Result<worker::Registration> registration =
      worker::LoadRegistration(worker::RegistrationPath(options.state_dir));
  if (!registration || !CheckServerUrl(registration->server_url, options.allow_plain_http)) return;
  worker::HandBackHeldJobs(options.state_dir, registration->server_url, registration->runner_token,
                           Log);
}

// CheckNotRoot refuses root unless allowed, saying why and what to do instead. Each job's
// ffmpeg runs as the worker's user. As root, its sandbox can read the worker's /proc. (Root
// holds CAP_SYS_PTRACE.) It can also open every /dev node.
Result<void> CheckNotRoot(bool allowed) {
  if (geteuid() != 0) return Ok();
  const std::string why =
      "running as root, under which the sandbox of each job's ffmpeg is weaker: an upload's ffmpeg "
      "could "
      "read the worker's memory and environment through /proc and open every /dev node";
  if (!allowed)
    return PermissionDenied(why +
                            "; run it under the shipped systemd unit (DynamicUser) or as a "
                            "dedicated user, or pass --allow-root to run as root all the same");
  Log("worker run: warning: " + why + " (--allow-root)");
  return Ok();
}

// Why `worker run` stops before its runner runs. It holds the exit code, and the line
// printed after "worker run: ".
struct RunStop {
  std::string message;
  int exit_code = 1;
};

// A step of `worker run` gives its value, or the stop.
template <typename T>
using RunStep = std::variant<T, RunStop>;

// Failed: a step could not be done (exit 1). Refused: a check said no (exit 2).
RunStop Failed(const std::string& why) { return {why, 1}; }
RunStop Refused(const std::string& why) { return {"refused: " + why, 2}; }

// ReadControlTokenFile reads the control API's token; empty where no file is given.
RunStep<std::string> ReadControlTokenFile(const std::string& file) {
  if (file.empty()) return std::string();
  Result<std::string> token = worker::ReadTokenFile(file);
  if (!token) return RunStop{"--control-token-file: " + token.error_message(), 2};
  return *token;
}

// CheckBeforeStart refuses at once, before the self-test, what could never run:
//  - a server URL or a sandbox the settings refuse;
//  - no registration at hand;
//  - half a TLS pair;
//  - an unreadable control token.
// It gives the control token.
RunStep<std::string> CheckBeforeStart(const WorkerRunOptions& options) {
  if (!options.server_url.empty()) {
    if (Result<void> checked = CheckServerUrl(options.server_url, options.allow_plain_http);
        !checked)
      return Refused(checked.error_message());
  }
  if (Result<void> boxed = CheckSandbox(options.gather.config); !boxed)
    return Refused(boxed.error_message());
  if (Result<void> at_hand =
          CheckRegistrationAtHand(options.state_dir, options.registration_token_file);
      !at_hand)
    return Failed(at_hand.error_message());
  if (options.control_tls_cert.empty() != options.control_tls_key.empty())
    return RunStop{"--control-tls-cert and --control-tls-key go together", 2};
  return ReadControlTokenFile(options.control_token_file);
}

// PrepareProcess sets what the worker and its children share:
//  - the CUDA device order;
//  - a private umask;
//  - a private state directory, made private even for a run then refused.
void PrepareProcess(const std::string& state_dir) {
  setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
  // What the worker and its runner make is the user's alone, whoever starts it. The state
  // with its tokens is 0700. The runner's in-flight videos are made 0600.
  umask(077);
  std::error_code error;
  fs::create_directories(state_dir, error);
  fs::permissions(state_dir, fs::perms::owner_all, error);
  if (error) {
    Log("worker run: warning: cannot make " + state_dir + " private (0700): " + error.message() +
        "; other local users may read the tokens");
  }
}

// PassSelfTest runs the self-test gate. A GPU that fails it stops the run with exit code 3.
RunStep<TestedGpu> PassSelfTest(const WorkerRunOptions& options) {
  Result<TestedGpu> tested = PassSelfTestGate({.probe = options.gather.probe,
                                               .self_test = options.self_test,
                                               .state_dir = options.state_dir,
                                               .max_age = options.self_test_max_age,
                                               .command = "worker run"});
  if (!tested) {
    return RunStop{
        "GPU_UNAVAILABLE: " + tested.error_message() + "; nothing registered, no runner started",
        kGpuUnavailableExit};
  }
  return std::move(*tested);
}

// FillDefaultListeners gives each listener not set the default of the GPU at `place`. So
// the workers of one host's GPUs never share a port.
void FillDefaultListeners(WorkerRunOptions& options, std::size_t place) {
  if (options.status_listen.empty())
    options.status_listen = worker::DefaultListenAddress(worker::kStatusPortBase, place);
  if (options.gate_listen.empty())
    options.gate_listen = worker::DefaultListenAddress(worker::kGatePortBase, place);
}

// The worker as PeerTube knows it. It holds its registration, and the server's and
// runner's versions.
struct RegisteredWorker {
  worker::Registration registration;
  worker::PeerTubeVersions peertube;
};

// RegisterWithPeerTube registers the runner where no registration is kept. Then it checks
// the server it names, and the server and runner pair.
RunStep<RegisteredWorker> RegisterWithPeerTube(const WorkerRunOptions& options,
                                               const std::string& device) {
  const std::string runner_name = RunnerName(options.gather.config.runner_name, device);
  Result<worker::Registration> registration =
      EnsureRegistered({.state_dir = options.state_dir,
                        .server_url = options.server_url,
                        .registration_token_file = options.registration_token_file,
                        .runner_name = runner_name,
                        .description = options.description,
                        .allow_plain_http = options.allow_plain_http});
  if (!registration) return Failed(registration.error_message());
  // The runner keeps the name it was registered with. The settings may now give another
  // name (a registration made with other options). That name is said, not taken.
  if (registration->runner_name != runner_name)
    Log("worker run: the runner is registered as " + registration->runner_name +
        ", which it keeps, though the settings now name it " + runner_name + " (remove " +
        worker::RegistrationPath(options.state_dir) + " and register anew to rename it)");
  // A registration kept from before names its own server. The same rule holds it.
  if (Result<void> checked = CheckServerUrl(registration->server_url, options.allow_plain_http);
      !checked)
    return Refused(checked.error_message());
  SayPlainHttp(registration->server_url);
  Result<worker::PeerTubeVersions> peertube =
      CheckPeerTubePair(registration->server_url, options.runner_command);
  if (!peertube) return RunStop{"refused: " + peertube.error_message() + "; no runner started", 1};
  return RegisteredWorker{std::move(*registration), std::move(*peertube)};
}

// StartDaemonOf starts the worker's daemon with the self-test's report, in a query batch.
RunStep<std::unique_ptr<worker::WorkerDaemon>> StartDaemonOf(const WorkerRunOptions& options,
                                                             const TestedGpu& gpu,
                                                             const RegisteredWorker& registered,
                                                             const std::string& control_token) {
  worker::GatherOptions gather = options.gather;
  gather.self_test = gpu.self_test;
  // From here on the worker has threads: queries run in a query batch.
  gather.probe.query.fork_from_caller = false;
  gather.config.ffmpeg = ResolveProgram(gather.config.ffmpeg);
  Result<std::unique_ptr<worker::WorkerDaemon>> daemon = StartDaemon(
      options, gather, control_token, registered.registration.server_url, registered.peertube);
  if (!daemon) return Failed(daemon.error_message());
  return std::move(*daemon);
}

// StartRunner writes the runner's folders, wrappers and configuration, then starts it.
RunStep<std::unique_ptr<worker::RunnerSupervisor>> StartRunner(const WorkerRunOptions& options,
                                                               const TestedGpu& gpu,
                                                               const RegisteredWorker& registered,
                                                               worker::WorkerDaemon& daemon) {
  const fs::path runner_root = fs::path(options.state_dir) / "runner";
  const fs::path bin = fs::path(options.state_dir) / "bin";
  if (Result<void> linked = LinkWrappers(bin); !linked) return Failed(linked.error_message());
  const std::string runner_id = "gpu-" + gpu.contract.devices[0].name;
  const fs::path data_home = RunnerDataHome(runner_root, runner_id, options.state_dir);
  const worker::WorkerConfig& config = options.gather.config;
  if (Result<void> written = worker::WritePrivateFile(
          worker::RunnerConfigPath((runner_root / "config").string(), runner_id),
          worker::RunnerConfigToml(
              {.concurrency = RunnerConcurrency(config, gpu.self_test, gpu.contract),
               .url = "http://" + daemon.gate_address(),
               .runner_name = registered.registration.runner_name,
               .runner_token = registered.registration.runner_token}));
      !written)
    return Failed("the runner's configuration: " + written.error_message());
  return std::make_unique<worker::RunnerSupervisor>(
      worker::RunnerOptions{.command = options.runner_command,
                            .id = runner_id,
                            .working_dir = runner_root.string(),
                            .log_path = (fs::path(options.state_dir) / "runner.log").string(),
                            .environment = {{"FFMPEG_PATH", (bin / "ffmpeg").string()},
                                            {"FFPROBE_PATH", (bin / "ffprobe").string()},
                                            {"PT_WORKER_SOCKET", daemon.socket_path()},
                                            {"PT_WORKER_FFMPEG", ResolveProgram(config.ffmpeg)},
                                            {"PT_WORKER_FFPROBE", ResolveProgram(options.ffprobe)},
                                            {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                                            {"XDG_CONFIG_HOME", (runner_root / "config").string()},
                                            {"XDG_CACHE_HOME", (runner_root / "cache").string()},
                                            {"XDG_DATA_HOME", data_home.string()}},
                            .log = Log,
                            .stale_files = {RunnerSocket(data_home, runner_id).string()},
                            .ended = [&daemon] { daemon.RunnerEnded(); }});
}

// Stopped prints why the run stopped and gives its exit code.
int Stopped(const RunStop& stop) {
  std::cerr << "worker run: " << stop.message << "\n";
  return stop.exit_code;
}

// StoppedDuringStart ends a run told to stop before its runner started. Nothing is left to drain;
// a stop is a success, as after a drain.
int StoppedDuringStart(const StopSignals& stop, const std::string& step) {
  Log("worker run: " + stop.Name() + " during " + step + "; stopped before the runner started");
  return 0;
}

}  // namespace

int RunWorkerRun(WorkerRunOptions options) {
  if (Result<void> checked = CheckNotRoot(options.allow_root); !checked)
    return Stopped(Refused(checked.error_message()));
  // SIGTERM and SIGINT are taken from here on. A stop during the start (systemctl stop while the
  // self-test runs) ends the self-test's ffmpeg and the run at once, before the runner starts.
  StopSignals stop_signals;
  options.self_test.stop = &stop_signals.flag();
  // A thread now waits for the signals, so the self-test's probe asks in a query batch rather
  // than in forks of this process.
  options.gather.probe.query.fork_from_caller = false;
  PrepareProcess(options.state_dir);
  const RunStep<std::string> control_token = CheckBeforeStart(options);
  if (const RunStop* stop = std::get_if<RunStop>(&control_token)) return Stopped(*stop);
  HandBackJobsOfALastRun(options);
  const RunStep<TestedGpu> gpu = PassSelfTest(options);
  if (stop_signals.requested()) return StoppedDuringStart(stop_signals, "the self-test");
  if (const RunStop* stop = std::get_if<RunStop>(&gpu)) return Stopped(*stop);
  const TestedGpu& tested = std::get<TestedGpu>(gpu);
  FillDefaultListeners(options, tested.place);
  const RunStep<RegisteredWorker> registration =
      RegisterWithPeerTube(options, tested.contract.devices[0].name);
  if (stop_signals.requested()) return StoppedDuringStart(stop_signals, "the registration");
  if (const RunStop* stop = std::get_if<RunStop>(&registration)) return Stopped(*stop);
  const RegisteredWorker& registered = std::get<RegisteredWorker>(registration);
  RunStep<std::unique_ptr<worker::WorkerDaemon>> daemon =
      StartDaemonOf(options, tested, registered, std::get<std::string>(control_token));
  if (stop_signals.requested()) return StoppedDuringStart(stop_signals, "the daemon's start");
  if (const RunStop* stop = std::get_if<RunStop>(&daemon)) return Stopped(*stop);
  auto& running = std::get<std::unique_ptr<worker::WorkerDaemon>>(daemon);
  RunStep<std::unique_ptr<worker::RunnerSupervisor>> runner =
      StartRunner(options, tested, registered, *running);
  if (const RunStop* stop = std::get_if<RunStop>(&runner)) return Stopped(*stop);
  WaitAndStop(stop_signals, running, *std::get<std::unique_ptr<worker::RunnerSupervisor>>(runner),
              options.drain_timeout);
  return 0;
}

int RunWorkerControlToken(const std::string& key_file, const std::string& name,
                          const std::string& out) {
  Result<std::string> token = pool::ControlTokenOf("", key_file, name);
  if (!token) {
    std::cerr << "worker control-token: " << token.error_message() << "\n";
    return 1;
  }
  if (Result<void> written = worker::WritePrivateFile(out, *token + "\n"); !written) {
    std::cerr << "worker control-token: " << written.error_message() << "\n";
    return 1;
  }
  std::cout << "wrote the control token of " << name << " to " << out << "\n";
  return 0;
}

int RunWorkerControl(const std::string& state_dir, const worker::LocalRequest& request,
                     const std::string& name) {
  const std::string path = worker::LocalSocketPath(state_dir);
  Result<worker::LocalClient> client = worker::LocalClient::Connect(path);
  if (!client) {
    std::cerr << "worker " << name << ": " << client.error_message();
    if (client.error().IsNotFound())
      std::cerr << ": no worker runs with this state directory. A unit's: `systemctl status "
                   "media-worker@N` says why, and --gpu N finds its state; one started by hand: "
                   "pass the --state-dir it was given";
    std::cerr << "\n";
    return 1;
  }
  Result<worker::LocalAnswer> answer = client->Ask(request, std::chrono::seconds(10));
  if (!answer) {
    std::cerr << "worker " << name << ": " << answer.error_message() << "\n";
    return 1;
  }
  std::cout << answer->state << ": " << answer->message << "\n";
  // The state says what is; the next step what to do about it.
  if (const std::optional<worker::WorkerState> state = worker::StateNamed(answer->state)) {
    if (const std::string_view next = worker::NextStep(*state); !next.empty())
      std::cout << "what to do: " << next << "\n";
  }
  return answer->ok ? 0 : 1;
}

}  // namespace mc
