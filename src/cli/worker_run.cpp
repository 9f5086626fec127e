#include "cli/worker_run.h"

#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include "cli/daemon_support.h"
#include "cli/peertube_pair.h"
#include "common/base/text.h"
#include "common/http/url.h"
#include "common/peertube/plain_http.h"
#include "pool/service/control_token.h"
#include "probe/pipeline/probe_pipeline.h"
#include "worker/daemon/local_socket.h"
#include "worker/daemon/registration.h"
#include "worker/daemon/runner_config.h"
#include "worker/daemon/runner_supervisor.h"
#include "worker/daemon/worker_daemon.h"
#include "worker/probe_contract/landlock.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/self_test/self_test_state.h"

namespace mc {
namespace fs = std::filesystem;

namespace {

std::string SelfPath() {
  char buffer[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "media-capabilities";
}

// The self-test gate: a green report this young is taken, else the test runs now. Nothing
// is registered or started on a GPU that has not passed it.
std::optional<worker::SelfTestReport> SelfTestGate(const WorkerRunOptions& options,
                                                   const probe::ProbeResult& probe,
                                                   const worker::ProbeContract& contract) {
  const std::string device =
      contract.devices.empty() ? options.gather.config.gpu : contract.devices[0].name;
  const std::string path = worker::SelfTestStatePath(options.state_dir, device);
  if (options.self_test_max_age.count() > 0 && !contract.devices.empty()) {
    Result<worker::SelfTestReport> saved =
        worker::LoadSelfTestOf(path, contract.devices[0], std::chrono::system_clock::now());
    if (!saved && !saved.failure().IsNotFound()) Log("worker run: " + saved.error());
    if (saved && saved->ok && saved->age_seconds &&
        *saved->age_seconds <= options.self_test_max_age.count()) {
      Log("worker run: taking the self-test of " + saved->ts);
      return *saved;
    }
  }
  Log("worker run: running the self-test on " + device);
  worker::SelfTestOptions test = options.self_test;
  std::string scratch =
      (fs::temp_directory_path() / "media-capabilities-self-test.XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return std::nullopt;
  test.scratch_dir = scratch;
  worker::SelfTestReport report = worker::RunSelfTest(probe, contract, test);
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  if (Result<void> saved = worker::SaveSelfTest(path, report); !saved)
    Log("worker run: the self-test's report was not kept: " + saved.error());
  return report;
}

// What crosses a worker's connection to PeerTube, and the flag that allows it in clear.
constexpr const char* kWorkerSecrets =
    "the registration token, the runner's token and its jobs' tokens";
constexpr const char* kAllowPlainHttp = "--allow-plain-http";

// CheckServerUrl refuses plain http:// beyond this host unless allowed.
Result<void> CheckServerUrl(const std::string& url, bool allowed) {
  Result<http::Url> parsed = http::ParseUrl(url);
  if (!parsed) return InvalidInput("--url: " + parsed.error());
  if (Result<void> checked =
          peertube::CheckPlainHttp(*parsed, allowed, kWorkerSecrets, kAllowPlainHttp);
      !checked) {
    return checked.failure().WithContext("--url");
  }
  return Ok();
}

// SayPlainHttp says in the log, once a worker is registered, what an allowed http:// beyond
// this host carries in clear.
void SayPlainHttp(const std::string& url) {
  Result<http::Url> parsed = http::ParseUrl(url);
  if (!parsed) return;
  if (const std::string warning =
          peertube::PlainHttpWarning(*parsed, kWorkerSecrets, kAllowPlainHttp);
      !warning.empty()) {
    Log("worker: " + warning);
  }
}

// CheckSandbox says in the log whether the jobs' ffmpeg runs in its box, as the status document
// and `worker doctor` say it, and refuses to start without one where the settings require it.
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

// NotRegistered is the answer to a worker with no registration and no token to make one: the
// deployments register with `worker register` before `worker run` starts, so that the running
// worker never holds the registration token.
Error NotRegistered(const std::string& path) {
  return NotFound("the worker is not registered (no " + path +
                  ") and was given no --registration-token-file: register it first with "
                  "`media-capabilities worker register --url URL --registration-token-file FILE` "
                  "and the same --state-dir, --gpu and runner name (docs/worker/worker.md)");
}

// CheckRegistrationAtHand refuses at once, before the self-test, a worker that could never
// register: no registration kept in the state directory and no token file to make one.
Result<void> CheckRegistrationAtHand(const std::string& state_dir,
                                     const std::string& registration_token_file) {
  if (!registration_token_file.empty()) return Ok();
  const std::string path = worker::RegistrationPath(state_dir);
  Result<worker::Registration> existing = worker::LoadRegistration(path);
  if (existing) return Ok();
  if (!existing.failure().IsNotFound()) return existing.failure();
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
  if (!existing.failure().IsNotFound()) return existing.failure();
  if (options.registration_token_file.empty()) return NotRegistered(path);
  if (url.empty()) return InvalidInput("--url is needed to register");
  if (Result<void> checked = CheckServerUrl(url, options.allow_plain_http); !checked)
    return checked.failure();
  Result<std::string> token = worker::ReadTokenFile(options.registration_token_file);
  if (!token) return token.failure();
  Result<worker::Registration> registration =
      worker::RegisterRunner({.server_url = url,
                              .registration_token = *token,
                              .runner_name = options.runner_name,
                              .description = options.description});
  if (!registration) return registration.failure();
  if (Result<void> saved = worker::SaveRegistration(path, *registration); !saved)
    return saved.failure();
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

int RunWorkerRegister(const WorkerRegisterOptions& options) {
  Result<worker::Registration> registration = EnsureRegistered(options);
  if (!registration) {
    std::cerr << "worker register: " << registration.error() << "\n";
    return 1;
  }
  SayPlainHttp(registration->server_url);
  std::cout << "registered with " << registration->server_url << " as " << registration->runner_name
            << " (runner " << registration->runner_id << ")\n";
  return 0;
}

namespace {

// The runner's ffmpeg and ffprobe: links in `bin` to this binary, which wraps the real ones.
bool LinkWrappers(const fs::path& bin) {
  std::error_code error;
  fs::create_directories(bin, error);
  for (const char* name : {"ffmpeg", "ffprobe"}) {
    fs::remove(bin / name, error);
    fs::create_symlink(SelfPath(), bin / name, error);
    if (error) {
      std::cerr << "worker run: cannot link " << (bin / name) << ": " << error.message() << "\n";
      return false;
    }
  }
  return true;
}

// The most jobs the runner takes at once: the GPU's sessions less the reserve, at most the
// configured bound; 8 where the sessions are not known.
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

// The runner's XDG_DATA_HOME. Its IPC socket lives there, and a Unix socket's path holds at
// most 107 bytes: a longer one is cut short by the kernel, and a runner started after a
// killed one then hangs on the socket it cannot find. A deep state directory gets a short
// folder of its own for that.
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

// The versions of the server and the runner, said in the log. A pair known to break, or a
// runner that does not run, is refused before the worker starts.
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

// Starts the worker's daemon (the status, the control API, the gate and the socket), and
// waits for its first status.
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
                                   .log = Log});
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
void WaitAndStop(const sigset_t& stop_signals, std::unique_ptr<worker::WorkerDaemon>& daemon,
                 worker::RunnerSupervisor& runner, std::chrono::seconds drain_timeout) {
  int received = 0;
  sigwait(&stop_signals, &received);
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

}  // namespace

int RunWorkerRun(WorkerRunOptions options) {
  const sigset_t stop_signals = BlockStopSignals();
  setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
  std::error_code error;
  fs::create_directories(options.state_dir, error);
  if (!options.server_url.empty()) {
    if (Result<void> checked = CheckServerUrl(options.server_url, options.allow_plain_http);
        !checked) {
      std::cerr << "worker run: refused: " << checked.error() << "\n";
      return 2;
    }
  }

  if (Result<void> boxed = CheckSandbox(options.gather.config); !boxed) {
    std::cerr << "worker run: refused: " << boxed.error() << "\n";
    return 2;
  }
  if (Result<void> at_hand =
          CheckRegistrationAtHand(options.state_dir, options.registration_token_file);
      !at_hand) {
    std::cerr << "worker run: " << at_hand.error() << "\n";
    return 1;
  }

  const probe::ProbeResult probe = probe::ProbeGpus(options.gather.probe);
  const worker::ProbeContract contract =
      worker::ContractFor(probe, {options.gather.config.gpu, options.gather.config.probe_module});
  const std::optional<worker::SelfTestReport> self_test = SelfTestGate(options, probe, contract);
  if (!self_test || !self_test->ok) {
    std::cerr << "worker run: GPU_UNAVAILABLE: the self-test failed"
              << (self_test ? ": " + self_test->detail : std::string()) << "; nothing registered, "
              << "no runner started\n";
    return 3;
  }
  const std::string device = contract.devices[0].name;
  const std::string runner_name = RunnerName(options.gather.config.runner_name, device);
  Result<worker::Registration> registration =
      EnsureRegistered({.state_dir = options.state_dir,
                        .server_url = options.server_url,
                        .registration_token_file = options.registration_token_file,
                        .runner_name = runner_name,
                        .description = options.description,
                        .allow_plain_http = options.allow_plain_http});
  if (!registration) {
    std::cerr << "worker run: " << registration.error() << "\n";
    return 1;
  }
  // The runner keeps the name it was registered with; a name the settings give now that
  // differs from it (a registration made with other options) is said, not taken.
  if (registration->runner_name != runner_name)
    Log("worker run: the runner is registered as " + registration->runner_name +
        ", which it keeps, though the settings now name it " + runner_name + " (remove " +
        worker::RegistrationPath(options.state_dir) + " and register anew to rename it)");
  // A registration kept from before names its own server, which the same rule holds.
  if (Result<void> checked = CheckServerUrl(registration->server_url, options.allow_plain_http);
      !checked) {
    std::cerr << "worker run: refused: " << checked.error() << "\n";
    return 2;
  }
  SayPlainHttp(registration->server_url);
  Result<worker::PeerTubeVersions> peertube =
      CheckPeerTubePair(registration->server_url, options.runner_command);
  if (!peertube) {
    std::cerr << "worker run: refused: " << peertube.error() << "; no runner started\n";
    return 1;
  }
  if (options.control_tls_cert.empty() != options.control_tls_key.empty()) {
    std::cerr << "worker run: --control-tls-cert and --control-tls-key go together\n";
    return 2;
  }
  std::string control_token;
  if (!options.control_token_file.empty()) {
    Result<std::string> token = worker::ReadTokenFile(options.control_token_file);
    if (!token) {
      std::cerr << "worker run: --control-token-file: " << token.error() << "\n";
      return 2;
    }
    control_token = *token;
  }

  worker::GatherOptions gather = options.gather;
  gather.self_test = *self_test;
  // From here on the worker has threads: queries run in a query batch.
  gather.probe.query.fork_from_caller = false;
  gather.config.ffmpeg = ResolveProgram(gather.config.ffmpeg);
  Result<std::unique_ptr<worker::WorkerDaemon>> daemon =
      StartDaemon(options, gather, control_token, registration->server_url, *peertube);
  if (!daemon) {
    std::cerr << "worker run: " << daemon.error() << "\n";
    return 1;
  }

  // The runner: its folders under the state directory, its ffmpeg and ffprobe the wrapper.
  const fs::path runner_root = fs::path(options.state_dir) / "runner";
  const fs::path bin = fs::path(options.state_dir) / "bin";
  if (!LinkWrappers(bin)) return 1;
  const worker::WorkerConfig& config = gather.config;
  const std::int64_t most = RunnerConcurrency(config, *self_test, contract);
  const std::string runner_id = "gpu-" + device;
  const fs::path data_home = RunnerDataHome(runner_root, runner_id, options.state_dir);
  const std::string gate_url = "http://" + (*daemon)->gate_address();
  if (Result<void> written = worker::WritePrivateFile(
          worker::RunnerConfigPath((runner_root / "config").string(), runner_id),
          worker::RunnerConfigToml({.concurrency = most,
                                    .url = gate_url,
                                    .runner_name = registration->runner_name,
                                    .runner_token = registration->runner_token}));
      !written) {
    std::cerr << "worker run: the runner's configuration: " << written.error() << "\n";
    return 1;
  }
  worker::RunnerSupervisor runner(
      {.command = options.runner_command,
       .id = runner_id,
       .working_dir = runner_root.string(),
       .log_path = (fs::path(options.state_dir) / "runner.log").string(),
       .environment = {{"FFMPEG_PATH", (bin / "ffmpeg").string()},
                       {"FFPROBE_PATH", (bin / "ffprobe").string()},
                       {"PT_WORKER_SOCKET", (*daemon)->socket_path()},
                       {"PT_WORKER_FFMPEG", config.ffmpeg},
                       {"PT_WORKER_FFPROBE", ResolveProgram(options.ffprobe)},
                       {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                       {"XDG_CONFIG_HOME", (runner_root / "config").string()},
                       {"XDG_CACHE_HOME", (runner_root / "cache").string()},
                       {"XDG_DATA_HOME", data_home.string()}},
       .log = Log,
       .stale_files = {RunnerSocket(data_home, runner_id).string()},
       .ended = [&daemon] { (*daemon)->RunnerEnded(); }});
  WaitAndStop(stop_signals, *daemon, runner, options.drain_timeout);
  return 0;
}

int RunWorkerControlToken(const std::string& key_file, const std::string& name,
                          const std::string& out) {
  Result<std::string> token = pool::ControlTokenOf("", key_file, name);
  if (!token) {
    std::cerr << "worker control-token: " << token.error() << "\n";
    return 1;
  }
  if (Result<void> written = worker::WritePrivateFile(out, *token + "\n"); !written) {
    std::cerr << "worker control-token: " << written.error() << "\n";
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
    std::cerr << "worker " << name << ": " << client.error() << "\n";
    return 1;
  }
  Result<worker::LocalAnswer> answer = client->Ask(request, std::chrono::seconds(10));
  if (!answer) {
    std::cerr << "worker " << name << ": " << answer.error() << "\n";
    return 1;
  }
  std::cout << answer->state << ": " << answer->message << "\n";
  return answer->ok ? 0 : 1;
}

}  // namespace mc
