#include "cli/worker_command.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "cli/option_checks.h"
#include "cli/peertube_pair.h"
#include "cli/roots_from_environment.h"
#include "cli/shared_options.h"
#include "cli/worker_run.h"
#include "cli/worker_serve.h"
#include "common/base/json_text.h"
#include "common/base/read_file.h"
#include "common/base/self_executable.h"
#include "common/base/text.h"
#include "probe/pipeline/probe_pipeline.h"
#include "probe/query/query_command.h"
#include "worker/daemon/local_socket.h"
#include "worker/evidence/kernel_log.h"
#include "worker/probe_contract/concurrency.h"
#include "worker/probe_contract/landlock.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/probe_contract/probe_contract_json.h"
#include "worker/probe_contract/worker_config.h"
#include "worker/self_test/self_test.h"
#include "worker/self_test/self_test_state.h"
#include "worker/status/status_document.h"
#include "worker/status/status_gather.h"
#include "worker/status/status_server.h"
#include "worker/status/worker_state.h"

namespace mc {
namespace {

// CommonFlags are the options of every worker subcommand: the settings table's flags (each
// overriding its PT_WORKER_* variable) and where the machine's files are.
struct CommonFlags {
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;
  probe::DiscoveryRoots roots;
  double deadline_seconds = std::chrono::duration<double>(probe::kQueryDeadline).count();
  std::string output = "table";

  void AddTo(CLI::App* command, const std::vector<std::string>& outputs) {
    roots = RootsFromEnvironment();
    AddSettingsTo(command);
    command->add_option("-o,--output", output, "the form of the answer")
        ->check(OneOf(outputs, "format"));
    AddDiscoveryRootOptions(*command, roots);
    AddQueryDeadlineOption(*command, deadline_seconds);
  }

  // AddSettingsTo gives a command the settings table's flags alone.
  void AddSettingsTo(CLI::App* command) {
    for (const worker::Setting& setting : worker::kSettings) {
      const std::string flag(setting.flag);
      options[flag] = command->add_option(
          flag, values[flag],
          std::string(setting.meaning) + " (" + std::string(setting.variable) + ")");
    }
  }

  // Config reads the settings: the flags given, else the environment, else the defaults.
  Result<worker::WorkerConfig> Config() const {
    std::map<std::string, std::string> given;
    for (const auto& [flag, option] : options) {
      if (option->count() > 0) given[flag] = values.at(flag);
    }
    return worker::LoadConfig(worker::ProcessEnvironment(), given);
  }

  // Request asks the driver of GPU `gpu` alone: the others are other workers' to use.
  probe::ProbeRequest Request(const std::string& gpu) const {
    probe::ProbeRequest request;
    request.roots = roots;
    request.only_gpu = gpu;
    request.query.program = SelfExecutable().string();
    request.query.fork_from_caller = true;
    request.query.deadline =
        std::chrono::milliseconds(static_cast<std::int64_t>(deadline_seconds * 1000.0));
    return request;
  }
};

// A state directory found for a command that reads a worker, and what the command says of it.
struct FoundStateDir {
  std::string path;
  std::string said;
};

// The root under which this machine's systemd units keep their files: MEDIA_CAP_HOST_ROOT (a
// test's folder), else /. GPU N's unit keeps its state in ROOT/var/lib/media-worker/N
// (StateDirectory=media-worker/%i, a link into var/lib/private under DynamicUser) and its settings
// in ROOT/etc/media-worker/N.env.
std::filesystem::path HostRoot() {
  const char* root = std::getenv("MEDIA_CAP_HOST_ROOT");
  return root && *root ? root : "/";
}

std::filesystem::path UnitsStateDir() { return HostRoot() / "var/lib/media-worker"; }

// FindStateDir takes the unit media-worker@GPU's state directory where it exists, else
// `fallback`. What it says names the folder it took and where else it looked.
FoundStateDir FindStateDir(const std::string& gpu, const std::filesystem::path& units,
                           const std::string& fallback) {
  const bool numbered = !gpu.empty() && gpu.find_first_not_of("0123456789") == std::string::npos;
  if (!numbered) {
    return {fallback, "reading the state directory " + fallback +
                          " (the default; the systemd units keep GPU N's in " +
                          (units / "N").string() + ", found with --gpu N; or pass --state-dir)"};
  }
  const std::filesystem::path unit = units / gpu;
  const std::string name = "media-worker@" + gpu;
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(unit, error);
  if (error == std::errc::permission_denied) {
    return {unit.string(), "reading " + name + "'s state directory " + unit.string() +
                               ", which only root and the unit's own user may read: run this "
                               "command as root"};
  }
  if (std::filesystem::is_directory(status))
    return {unit.string(), "reading " + name + "'s state directory " + unit.string()};
  return {fallback, "no state directory of " + name + " at " + unit.string() +
                        " (the unit has never run on this machine); reading the default, " +
                        fallback + " (pass --state-dir for another)"};
}

// KernelLogFinding says whether the Xid check can read the kernel log: as this user, and as the
// shipped unit's user, which has no CAP_SYSLOG and so cannot where kernel.dmesg_restrict is 1.
std::string KernelLogFinding(const std::string& kernel_log, const std::string& proc_root) {
  const Result<std::string> read = worker::ReadKernelLog(kernel_log);
  if (!read) return "the Xid check cannot run: " + read.error_message();
  const Result<std::string> restrict =
      ReadFileText((std::filesystem::path(proc_root) / "sys/kernel/dmesg_restrict").string());
  const bool restricted = restrict && Trim(*restrict) == "1";
  std::string finding = kernel_log + " is readable here, so the Xid check runs for this user";
  if (restricted && kernel_log == "/dev/kmsg")
    finding +=
        "; but kernel.dmesg_restrict is 1, under which the shipped unit's user (no "
        "CAP_SYSLOG) cannot read it: " +
        std::string(worker::kAllowKernelLog);
  return finding;
}

// ConfigOrSayWhy reads the settings, or says on stderr, after `command`, why it cannot.
std::optional<worker::WorkerConfig> ConfigOrSayWhy(const CommonFlags& flags,
                                                   const std::string& command) {
  Result<worker::WorkerConfig> config = flags.Config();
  if (!config) {
    std::cerr << command << ": " << config.error_message() << "\n";
    return std::nullopt;
  }
  return std::move(*config);
}

void PrintLogLines(const probe::ProbeResult& probe) {
  for (const probe::DeviceReport& report : probe.reports) {
    for (const std::string& line : probe::LogLines(report)) std::cerr << line << "\n";
  }
}

// Worker registers only the word `worker` with the main command line. It builds its own
// options when it runs. The settings table gives every subcommand some twenty options.
// Registering them on every start would tax `probe`, which must stay as lean as vainfo.
class Worker : public WorkerCommand {
 public:
  explicit Worker(CLI::App& app) {
    command_ =
        app.add_subcommand("worker",
                           "the PeerTube transcoding worker's view of its own GPU: probe, status "
                           "(docs/worker/worker.md)");
    // Everything after `worker`, --help included, is the worker's own command line.
    command_->prefix_command();
    command_->set_help_flag();
  }

  bool Selected() const override { return command_->parsed(); }

  int Run() override {
    CLI::App worker{"the PeerTube transcoding worker's view of its own GPU (docs/worker/worker.md)",
                    "media-capabilities worker"};
    worker.require_subcommand(1);
    AddProbeCommands(worker);
    AddSelfTestCommand(worker);
    AddServeCommand(worker);
    AddRunCommand(worker);
    AddRegisterCommand(worker);
    AddControlTokenCommand(worker);
    AddDoctorCommand(worker);
    AddControlCommands(worker);
    ExplainNumberMistakes(worker);
    std::vector<std::string> arguments = command_->remaining();
    if (const std::string unknown = UnknownSubcommand(worker, arguments); !unknown.empty()) {
      std::cerr << "media-capabilities worker: " << unknown << "\n";
      return 2;
    }
    // CLI11 takes the arguments last first.
    std::reverse(arguments.begin(), arguments.end());
    try {
      worker.parse(arguments);
    } catch (const CLI::ParseError& error) {
      return worker.exit(error);
    }
    return RunParsed();
  }

 private:
  // The subcommands that read this machine: probe and status.
  void AddProbeCommands(CLI::App& worker) {
    probe_ = worker.add_subcommand(
        "probe", "whether this GPU may take transcoding work, and what it can do");
    probe_flags_.AddTo(probe_, {"table", "json"});
    status_ = worker.add_subcommand(
        "status", "the worker's status document: state, GPU, concurrency, counters");
    status_flags_.AddTo(status_, {"table", "json", "prometheus"});
    AddProcRootOption(*status_, files_.proc_root);
    AddKernelLogOption(*status_, files_.kernel_log);
    AddNvmlLibraryOption(*status_, files_.nvml_library);
    AddStateDirOption(*status_, files_.state_dir);
  }

  void AddSelfTestCommand(CLI::App& worker) {
    self_test_ =
        worker.add_subcommand("self-test",
                              "prove with the real ffmpeg that this GPU encodes, pipelines, "
                              "opens its sessions and decodes, and keep the report");
    self_test_flags_.AddTo(self_test_, {"table", "json"});
    self_test_->add_option(
        "--streams", streams_dir_,
        "ready-made test streams (h264.mp4, hevc.mp4, av1.mp4, vp9.webm) for an ffmpeg that "
        "cannot make them");
    AddStateDirOption(*self_test_, files_.state_dir);
    AddProcRootOption(*self_test_, files_.proc_root);
    AddNvmlLibraryOption(*self_test_, files_.nvml_library);
    self_test_->add_option("--command-log", command_log_,
                           "append every ffmpeg command line it runs to this file");
  }

  void AddServeCommand(CLI::App& worker) {
    serve_ = worker.add_subcommand(
        "serve", "serve the status document (GET /status) and its metrics (GET /metrics)");
    serve_flags_.AddTo(serve_, {"table"});
    serve_->add_option("--listen", listen_, "HOST:PORT to serve on; port 0 picks a free one")
        ->capture_default_str();
    AddStateDirOption(*serve_, files_.state_dir);
    AddProcRootOption(*serve_, files_.proc_root);
    AddKernelLogOption(*serve_, files_.kernel_log);
    AddNvmlLibraryOption(*serve_, files_.nvml_library);
  }

  void AddRunCommand(CLI::App& worker) {
    run_ = worker.add_subcommand(
        "run",
        "the worker in PeerTube's path: self-test, register once, then the admission "
        "gate, the status and control API, and the official runner as its child");
    run_flags_.AddTo(run_, {"table"});
    AddStateDirOption(*run_, files_.state_dir);
    run_->add_option("--url", url_, "the PeerTube server, such as https://videos.example.org");
    run_->add_option("--registration-token-file", registration_token_file_,
                     "a file holding PeerTube's runner registration token, to register first "
                     "where the state directory holds no registration (the deployments run "
                     "worker register instead, so that the running worker never holds it)");
    AddAllowPlainHttpFlag(*run_);
    run_->add_option("--description", description_, "the runner's description in PeerTube");
    run_->add_flag(
        "--allow-root", allow_root_,
        "run as root all the same (refused otherwise: the sandbox of each job's ffmpeg is weaker "
        "as root)");
    AddRunnerOption(*run_);
    // Each GPU's worker has ports of its own, so that one host runs one worker per GPU.
    run_->footer(
        "Default ports: N is the GPU's place in PCI address order (--gpu N, or the place of "
        "the GPU --gpu names).\n  --listen       127.0.0.1:(9464 + 10 N)\n  --gate-listen  "
        "127.0.0.1:(9465 + 10 N)\n  --control-listen has none; 9466 + 10 N is its port by the "
        "same rule.\nA flag given wins.");
    run_->add_option("--gate-listen", gate_listen_,
                     "HOST:PORT of the admission gate (default 127.0.0.1:9465 + 10 N, below)");
    run_->add_option("--listen", run_listen_,
                     "HOST:PORT of the read-only /status and /metrics (default 127.0.0.1:9464 + "
                     "10 N, below)");
    run_->add_option("--control-listen", control_listen_,
                     "HOST:PORT of the control API (drain, enable, concurrency, eligibility); "
                     "none: the API is off")
        ->capture_default_str();
    run_->add_option("--control-token-file", control_token_file_,
                     "a file holding this worker's control API token");
    run_->add_option("--control-tls-cert", control_tls_cert_,
                     "the control API's certificate chain (PEM); needed beyond loopback");
    run_->add_option("--control-tls-key", control_tls_key_, "the key of --control-tls-cert (PEM)");
    run_->add_option("--drain-timeout", drain_timeout_s_,
                     "seconds a drain waits for running jobs before it counts as DRAINED")
        ->capture_default_str();
    run_->add_option("--self-test-max-age", self_test_max_age_s_,
                     "take a green self-test this many seconds old instead of running one")
        ->capture_default_str();
    run_->add_option("--streams", streams_dir_, "ready-made test streams for the self-test");
    run_->add_option("--ffprobe", ffprobe_, "the real ffprobe")->capture_default_str();
    AddProcRootOption(*run_, files_.proc_root);
    AddKernelLogOption(*run_, files_.kernel_log);
    AddNvmlLibraryOption(*run_, files_.nvml_library);
  }

  void AddRegisterCommand(CLI::App& worker) {
    register_ = worker.add_subcommand(
        "register",
        "self-test the GPU, then register the runner with PeerTube, once, under the name "
        "`worker run` then uses: the only step that reads the registration token");
    // The settings that name the runner (--runner-name, else the host and --gpu's device) are
    // worker run's own, so that both name it alike.
    register_flags_.AddTo(register_, {"table"});
    AddStateDirOption(*register_, files_.state_dir);
    register_->add_option("--url", url_, "the PeerTube server")->required();
    register_
        ->add_option("--registration-token-file", registration_token_file_,
                     "a file holding PeerTube's runner registration token")
        ->required();
    register_->add_option("--description", description_, "the runner's description");
    AddAllowPlainHttpFlag(*register_);
    // The self-test gate of `worker run`: a GPU that fails it is never registered.
    register_
        ->add_option("--self-test-max-age", self_test_max_age_s_,
                     "take a green self-test this many seconds old instead of running one")
        ->capture_default_str();
    register_->add_option("--streams", streams_dir_, "ready-made test streams for the self-test");
    AddProcRootOption(*register_, files_.proc_root);
    AddNvmlLibraryOption(*register_, files_.nvml_library);
  }

  void AddControlTokenCommand(CLI::App& worker) {
    control_token_ = worker.add_subcommand(
        "control-token",
        "write this worker's control API token, derived from the pool's control key, where "
        "`worker run --control-token-file` reads it (run where the key is mounted, then never "
        "again)");
    control_token_->add_option("--key-file", control_key_file_, "the pool's control key")
        ->required();
    control_token_->add_option("--name", runner_name_, "the worker's runner name in PeerTube")
        ->required();
    control_token_->add_option("--out", control_token_file_, "the token file to write (mode 0600)")
        ->required();
  }

  void AddAllowPlainHttpFlag(CLI::App& command) {
    command.add_flag("--allow-plain-http", allow_plain_http_,
                     "reach a PeerTube server beyond this host over http://, its tokens in clear "
                     "(refused otherwise)");
  }

  void AddDoctorCommand(CLI::App& worker) {
    doctor_ = worker.add_subcommand(
        "doctor",
        "the PeerTube server's and the official runner's versions, whether the pair is "
        "tested, compatible by contract, or known to break, and whether ffmpeg runs in its "
        "sandbox");
    doctor_->add_option("--url", url_, "the PeerTube server")->required();
    AddRunnerOption(*doctor_);
    AddKernelLogOption(*doctor_, files_.kernel_log);
    AddProcRootOption(*doctor_, files_.proc_root);
    // The worker's own settings, of which the sandbox's requirement is read.
    doctor_flags_.AddSettingsTo(doctor_);
  }

  void AddRunnerOption(CLI::App& command) {
    command
        .add_option("--runner", runner_,
                    "the official runner's command (split at spaces), such as peertube-runner "
                    "or \"node /opt/peertube-runner.js\"")
        ->capture_default_str();
  }

  // The subcommands that ask a running worker to change: drain, enable, state, concurrency and
  // eligibility.
  void AddControlCommands(CLI::App& worker) {
    for (const char* name : {"drain", "enable", "state"}) {
      CLI::App* control = worker.add_subcommand(
          name, std::string(name) == "drain"    ? "take no new job; finish the running ones"
                : std::string(name) == "enable" ? "take jobs again (after a green probe)"
                                                : "the worker's state, in one line");
      AddStateDirOption(*control, files_.state_dir);
      AddControlGpuOption(*control);
      controls_[name] = control;
    }
    concurrency_ = worker.add_subcommand(
        "concurrency", "the most jobs at once the worker takes (bounded by its resources)");
    concurrency_->add_option("value", control_value_, "a whole number, or auto")->required();
    AddStateDirOption(*concurrency_, files_.state_dir);
    AddControlGpuOption(*concurrency_);
    eligibility_ = worker.add_subcommand(
        "eligibility", "which jobs the worker takes: types=...;max-resolution=N;max-fps=N");
    eligibility_->add_option("value", control_value_, "the eligibility, \"\" for every job")
        ->required();
    AddStateDirOption(*eligibility_, files_.state_dir);
    AddControlGpuOption(*eligibility_);
  }

  // --gpu N of a command that asks a running worker: its unit's state directory is found by
  // itself.
  void AddControlGpuOption(CLI::App& command) {
    command.add_option("--gpu", control_gpu_,
                       "the GPU whose worker to ask, as the N of its unit media-worker@N: its "
                       "state directory is found without --state-dir");
  }

  // Runs the one subcommand the command line chose.
  int RunParsed() {
    if (probe_->parsed()) return RunProbe();
    if (status_->parsed()) return RunStatus();
    if (self_test_->parsed()) return RunSelfTest();
    if (serve_->parsed()) return RunServeCommand();
    if (run_->parsed()) return RunRunCommand();
    if (doctor_->parsed()) return RunDoctor();
    if (register_->parsed()) return RunRegisterCommand();
    if (control_token_->parsed())
      return RunWorkerControlToken(control_key_file_, runner_name_, control_token_file_);
    if (controls_["drain"]->parsed())
      return RunWorkerControl(ControlStateDir("drain"), worker::DrainRequest{}, "drain");
    if (controls_["enable"]->parsed())
      return RunWorkerControl(ControlStateDir("enable"), worker::EnableRequest{}, "enable");
    if (controls_["state"]->parsed())
      return RunWorkerControl(ControlStateDir("state"), worker::StateRequest{}, "state");
    if (concurrency_->parsed()) return RunConcurrency();
    if (eligibility_->parsed())
      return RunWorkerControl(ControlStateDir("eligibility"),
                              worker::EligibilityRequest{.text = control_value_}, "eligibility");
    return 2;
  }

  // The runner's command, split at spaces.
  std::vector<std::string> RunnerWords() const {
    std::vector<std::string> command;
    std::istringstream words(runner_);
    for (std::string word; words >> word;) command.push_back(word);
    return command;
  }

  // RunDoctor checks what the worker needs beside its GPU: the PeerTube pair, and ffmpeg's
  // sandbox on this kernel. It fails on:
  //  - a pair that breaks;
  //  - a runner that does not run;
  //  - a sandbox that is required and missing.
  // An unboxed ffmpeg is a warning in words.
  int RunDoctor() {
    const std::optional<worker::WorkerConfig> config =
        ConfigOrSayWhy(doctor_flags_, "worker doctor");
    if (!config) return 2;
    const PeerTubePair pair = ReadPeerTubePair(url_, RunnerWords());
    const worker::FfmpegSandbox sandbox =
        worker::FfmpegSandboxOf(worker::LandlockAbi(), config->require_sandbox);
    std::cout << pair.Text(url_, runner_) << "ffmpeg's sandbox: " << worker::SandboxVerdict(sandbox)
              << ": " << worker::SandboxFinding(sandbox) << "\n"
              << "the kernel log: " << KernelLogFinding(files_.kernel_log, files_.proc_root)
              << "\n";
    const bool breaks = pair.verdict.support == peertube::Support::kBreaks || !pair.runner_runs;
    const bool unsafe = !sandbox.ffmpeg_boxed && sandbox.required;
    return breaks || unsafe ? 1 : 0;
  }

  int RunConcurrency() {
    Result<std::optional<std::int64_t>> hint = worker::ParseConcurrencyHint(control_value_);
    if (!hint) {
      std::cerr << "worker concurrency: " << control_value_ << " is not a whole number from 0 to "
                << worker::kMaxConcurrencyHint << ", nor auto\n";
      return 2;
    }
    return RunWorkerControl(ControlStateDir("concurrency"),
                            worker::ConcurrencyRequest{.value = *hint}, "concurrency");
  }

  int RunProbe() {
    const std::optional<worker::WorkerConfig> config = ConfigOrSayWhy(probe_flags_, "worker probe");
    if (!config) return 2;
    const probe::ProbeResult probe = probe::ProbeGpus(probe_flags_.Request(config->gpu));
    PrintLogLines(probe);
    const worker::ProbeContract contract =
        worker::ContractFor(probe, {config->gpu, config->probe_module});
    if (probe_flags_.output == "json") {
      std::cout << JsonText(worker::ContractJson(contract), 2) << "\n";
    } else {
      std::cout << worker::ContractTable(contract);
    }
    std::cout.flush();
    if (!std::cout) return 1;
    // A GPU that may not work is a failure of the command, so that a script stops there.
    return contract.ok ? 0 : 1;
  }

  int RunStatus() {
    const std::optional<worker::WorkerConfig> config =
        ConfigOrSayWhy(status_flags_, "worker status");
    if (!config) return 2;
    worker::GatherOptions options = GatherOptionsOf(*config, status_flags_);
    options.self_test_state_dir = FoundStateDirOf(config->gpu, "worker status");
    const worker::StatusInputs inputs = worker::GatherStatus(options);
    if (status_flags_.output == "json") {
      std::cout << JsonText(worker::StatusDocument(inputs), 2) << "\n";
    } else if (status_flags_.output == "prometheus") {
      std::cout << worker::PrometheusText(inputs);
    } else {
      std::cout << worker::StatusTable(inputs);
    }
    std::cout.flush();
    // The status is an answer whatever the state; only a failure to print it fails.
    return std::cout ? 0 : 1;
  }

  // FoundStateDirOf is --state-dir when given. Else it is GPU `gpu`'s unit's state directory, or
  // the default, and the command says on stderr which it took.
  std::string FoundStateDirOf(const std::string& gpu, const std::string& command) const {
    if (!files_.state_dir.empty()) return files_.state_dir;
    const FoundStateDir found =
        FindStateDir(gpu, UnitsStateDir(), worker::DefaultStateDir(worker::ProcessEnvironment()));
    std::cerr << command << ": " << found.said << "\n";
    return found.path;
  }

  std::string ControlStateDir(const std::string& name) const {
    return FoundStateDirOf(control_gpu_, "worker " + name);
  }

  std::string StateDir() const {
    return files_.state_dir.empty() ? worker::DefaultStateDir(worker::ProcessEnvironment())
                                    : files_.state_dir;
  }

  int RunSelfTest() {
    const std::optional<worker::WorkerConfig> config =
        ConfigOrSayWhy(self_test_flags_, "worker self-test");
    if (!config) return 2;
    // ffmpeg's -gpu and -hwaccel_device count CUDA devices. In PCI bus order, CUDA counts as
    // the probe counts GPUs. So the test runs on the GPU it names.
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    const probe::ProbeResult probe = probe::ProbeGpus(self_test_flags_.Request(config->gpu));
    PrintLogLines(probe);
    const worker::ProbeContract contract =
        worker::ContractFor(probe, {config->gpu, config->probe_module});

    std::string scratch =
        (std::filesystem::temp_directory_path() / "media-capabilities-self-test.XXXXXX").string();
    if (mkdtemp(scratch.data()) == nullptr) {
      std::cerr << "worker self-test: cannot make a scratch directory under "
                << std::filesystem::temp_directory_path() << "\n";
      return 1;
    }
    worker::SelfTestOptions options;
    options.config = *config;
    options.streams_dir = streams_dir_;
    options.scratch_dir = scratch;
    options.dev_root = self_test_flags_.roots.dev;
    options.proc_root = files_.proc_root;
    options.nvml_library = files_.nvml_library;
    options.command_log = command_log_;
    const worker::SelfTestReport report = worker::RunSelfTest(probe, contract, options);
    std::error_code ignored;
    std::filesystem::remove_all(scratch, ignored);

    const std::string device = contract.devices.empty() ? config->gpu : contract.devices[0].name;
    const std::string path = worker::SelfTestStatePath(StateDir(), device);
    const Result<void> saved = worker::SaveSelfTest(path, report);
    if (!saved) {
      std::cerr << "worker self-test: the report was not kept: " << saved.error_message()
                << ": pass --state-dir with a folder you may write (or set XDG_STATE_HOME); "
                   "`worker run` and `worker register` then take it with the same --state-dir\n";
    }
    if (self_test_flags_.output == "json") {
      std::cout << JsonText(worker::SelfTestReportJson(report), 2) << "\n";
    } else {
      std::cout << "self-test of " << device << ": " << (report.ok ? "passed" : "FAILED") << " ("
                << report.ts << ")\n";
      for (const worker::SelfTestStep& step : report.steps) {
        std::cout << "  " << step.name << ": " << (step.ok ? "ok" : "FAILED") << ", "
                  << step.seconds << " s\n";
        if (!step.evidence.empty()) std::cout << "    evidence: " << step.evidence << "\n";
        if (!step.detail.empty()) std::cout << "    detail: " << step.detail << "\n";
      }
      if (report.sessions_cap)
        std::cout << "  sessions cap: " << *report.sessions_cap << " (cap_source probe)\n";
      if (report.pipeline_vram_mb)
        std::cout << "  VRAM per 1080p pipeline: " << *report.pipeline_vram_mb << " MiB\n";
      if (saved) std::cout << "  report kept in " << path << "\n";
    }
    std::cout.flush();
    if (!std::cout) return 1;
    return report.ok ? 0 : 1;
  }

  int RunServeCommand() {
    const std::optional<worker::WorkerConfig> config = ConfigOrSayWhy(serve_flags_, "worker serve");
    if (!config) return 2;
    worker::GatherOptions options = GatherOptionsOf(*config, serve_flags_);
    // The server answers on a thread of its own, so the queries may not fork from this
    // process. They run in a query batch, as the agent's do.
    options.probe.query.fork_from_caller = false;
    options.self_test_state_dir = StateDir();
    return RunServe(options, listen_);
  }

  // `worker register`: the self-test gate of `worker run` first, so that a GPU that cannot
  // work is never registered. Then the runner's name as `worker run` gives it: the configured
  // one, else HOSTNAME:DEVICE, the device's name (--gpu 0 is pci-0000-01-00-0) from the probe.
  int RunRegisterCommand() {
    const std::optional<worker::WorkerConfig> config =
        ConfigOrSayWhy(register_flags_, "worker register");
    if (!config) return 2;
    // ffmpeg's -gpu counts CUDA devices, in the probe's order under PCI_BUS_ID.
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    worker::SelfTestOptions test;
    test.config = *config;
    test.streams_dir = streams_dir_;
    test.dev_root = register_flags_.roots.dev;
    test.proc_root = files_.proc_root;
    test.nvml_library = files_.nvml_library;
    const Result<TestedGpu> tested =
        PassSelfTestGate({.probe = register_flags_.Request(config->gpu),
                          .self_test = test,
                          .state_dir = StateDir(),
                          .max_age = std::chrono::seconds(self_test_max_age_s_),
                          .command = "worker register"});
    if (!tested) {
      std::cerr << "worker register: GPU_UNAVAILABLE: " << tested.error_message()
                << "; nothing registered. `media-capabilities worker self-test` with the same "
                   "--gpu and settings shows each step; register once it passes "
                   "(docs/worker/worker.md)\n";
      return kGpuUnavailableExit;
    }
    return RunWorkerRegister(
        {.state_dir = StateDir(),
         .server_url = url_,
         .registration_token_file = registration_token_file_,
         .runner_name = RunnerName(config->runner_name, tested->contract.devices[0].name),
         .description = description_,
         .allow_plain_http = allow_plain_http_});
  }

  int RunRunCommand() {
    const std::optional<worker::WorkerConfig> config = ConfigOrSayWhy(run_flags_, "worker run");
    if (!config) return 2;
    WorkerRunOptions options;
    options.gather = GatherOptionsOf(*config, run_flags_);
    options.state_dir = StateDir();
    options.gather.self_test_state_dir = options.state_dir;
    options.self_test.config = *config;
    options.self_test.streams_dir = streams_dir_;
    options.self_test.dev_root = run_flags_.roots.dev;
    options.self_test.proc_root = files_.proc_root;
    options.self_test.nvml_library = files_.nvml_library;
    options.server_url = url_;
    options.registration_token_file = registration_token_file_;
    options.description = description_;
    options.allow_plain_http = allow_plain_http_;
    options.allow_root = allow_root_;
    options.runner_command = RunnerWords();
    if (options.runner_command.empty()) {
      std::cerr << "worker run: --runner names no command\n";
      return 2;
    }
    options.gate_listen = gate_listen_;
    options.status_listen = run_listen_;
    options.control_listen = control_listen_;
    options.control_token_file = control_token_file_;
    options.control_tls_cert = control_tls_cert_;
    options.control_tls_key = control_tls_key_;
    options.drain_timeout = std::chrono::seconds(drain_timeout_s_);
    options.self_test_max_age = std::chrono::seconds(self_test_max_age_s_);
    options.ffprobe = ffprobe_;
    return RunWorkerRun(std::move(options));
  }

  worker::GatherOptions GatherOptionsOf(const worker::WorkerConfig& config,
                                        const CommonFlags& flags) const {
    worker::GatherOptions options;
    options.config = config;
    options.probe = flags.Request(config.gpu);
    options.platform = {.dev = flags.roots.dev, .proc = files_.proc_root};
    options.proc_root = files_.proc_root;
    options.kernel_log = files_.kernel_log;
    options.nvml_library = files_.nvml_library;
    return options;
  }

  CLI::App* command_ = nullptr;
  CLI::App* self_test_ = nullptr;
  CommonFlags self_test_flags_;
  std::string streams_dir_;
  std::string command_log_;
  CLI::App* probe_ = nullptr;
  CLI::App* status_ = nullptr;
  CommonFlags probe_flags_;
  CommonFlags status_flags_;
  CLI::App* serve_ = nullptr;
  CommonFlags serve_flags_;
  std::string listen_ = worker::kDefaultStatusAddress;
  // Where this machine's files are: the options status, self-test, serve and run share.
  MachineFiles files_;
  CLI::App* run_ = nullptr;
  CommonFlags run_flags_;
  CLI::App* register_ = nullptr;
  CommonFlags register_flags_;
  CLI::App* control_token_ = nullptr;
  std::string control_key_file_;
  CLI::App* doctor_ = nullptr;
  CommonFlags doctor_flags_;
  std::map<std::string, CLI::App*> controls_;
  CLI::App* concurrency_ = nullptr;
  CLI::App* eligibility_ = nullptr;
  std::string control_value_;
  std::string control_gpu_;
  std::string url_;
  bool allow_plain_http_ = false;
  bool allow_root_ = false;
  std::string registration_token_file_;
  std::string description_ = "a GPU transcoding worker (media-capabilities)";
  std::string runner_ = "peertube-runner";
  // The worker's runner name, as `worker control-token --name` takes it.
  std::string runner_name_;
  // Empty: the default of the GPU's place (FillDefaultListeners).
  std::string gate_listen_;
  std::string run_listen_;
  std::string control_listen_;
  std::string control_token_file_;
  std::string control_tls_cert_;
  std::string control_tls_key_;
  std::int64_t drain_timeout_s_ = 1800;
  std::int64_t self_test_max_age_s_ = 0;
  std::string ffprobe_ = "ffprobe";
};

}  // namespace

namespace {

// The units' instances: the N of each state directory and each N.env of this box.
std::set<std::string> UnitInstances() {
  std::set<std::string> instances;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(UnitsStateDir(), error))
    instances.insert(entry.path().filename().string());
  for (const auto& entry :
       std::filesystem::directory_iterator(HostRoot() / "etc/media-worker", error)) {
    if (entry.path().extension() == ".env") instances.insert(entry.path().stem().string());
  }
  std::erase_if(instances, [](const std::string& name) {
    return name.empty() || name.find_first_not_of("0123456789") != std::string::npos;
  });
  return instances;
}

// SettingOf reads NAME=VALUE of a systemd EnvironmentFile, quotes removed; empty when absent.
std::string SettingOf(const std::filesystem::path& file, const std::string& name) {
  const Result<std::string> text = ReadFileText(file.string());
  if (!text) return "";
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    const std::string_view trimmed = Trim(line);
    if (!trimmed.starts_with(name + "=")) continue;
    std::string value(Trim(trimmed.substr(name.size() + 1)));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    return value;
  }
  return "";
}

dra::CheckResult KernelLogCheck(const std::string& proc_root) {
  constexpr std::string_view kId = "kernel-log";
  const std::string finding = KernelLogFinding("/dev/kmsg", proc_root);
  const std::size_t advice = finding.find(worker::kAllowKernelLog);
  if (advice == std::string::npos) return dra::Ok(kId, finding);
  // The finding's own words end where the advice begins.
  return dra::Warn(kId, std::string(Trim(finding.substr(0, advice), " :")),
                   worker::kAllowKernelLog);
}

dra::CheckResult UnitCheck(const std::string& instance) {
  constexpr std::string_view kId = "worker-units";
  const std::string unit = "media-worker@" + instance;
  const std::string socket = worker::LocalSocketPath((UnitsStateDir() / instance).string());
  const std::string look = "systemctl status " + unit + " and journalctl -u " + unit +
                           " say why (docs/troubleshooting.md)";
  Result<worker::LocalClient> client = worker::LocalClient::Connect(socket);
  if (!client) {
    if (client.error().IsNotFound())
      return dra::Fail(kId, unit + " has no running worker (no socket at " + socket + ")", look);
    return dra::Warn(kId, unit + ": " + client.error_message(),
                     "run the doctor as root: the units' state is theirs and root's alone");
  }
  Result<worker::LocalAnswer> answer = client->Ask(worker::StateRequest{}, std::chrono::seconds(5));
  if (!answer) return dra::Fail(kId, unit + ": " + answer.error_message(), look);
  const std::string finding = unit + ": " + answer->state + ": " + answer->message;
  const std::optional<worker::WorkerState> state = worker::StateNamed(answer->state);
  const std::string next = state ? std::string(worker::NextStep(*state)) : "";
  if (!state || *state == worker::WorkerState::kAvailable || *state == worker::WorkerState::kBusy ||
      *state == worker::WorkerState::kDraining)
    return dra::Ok(kId, finding);
  if (*state == worker::WorkerState::kDrained || *state == worker::WorkerState::kThermalThrottled)
    return dra::Warn(kId, finding, next);
  return dra::Fail(kId, finding, next);
}

}  // namespace

dra::CheckResults WorkerDoctorChecks(const std::string& proc_root) {
  const std::set<std::string> instances = UnitInstances();
  if (instances.empty()) return {};
  dra::CheckResults results = {KernelLogCheck(proc_root)};
  std::set<std::string> servers;
  for (const std::string& instance : instances) {
    results.push_back(UnitCheck(instance));
    const std::string url =
        SettingOf(HostRoot() / "etc/media-worker" / (instance + ".env"), "PEERTUBE_URL");
    if (url.empty()) {
      results.push_back(dra::Fail("peertube-server",
                                  "media-worker@" + instance + " names no PeerTube server",
                                  "write PEERTUBE_URL=https://... in /etc/media-worker/" +
                                      instance + ".env (docs/worker/worker.md)"));
    } else {
      servers.insert(url);
    }
  }
  // The runner is the units' own: `--runner peertube-runner` on the units' PATH.
  std::optional<PeerTubePair> runner;
  for (const std::string& url : servers) {
    const PeerTubePair pair = ReadPeerTubePair(url, {"peertube-runner"});
    if (pair.server) {
      results.push_back(
          dra::Ok("peertube-server", "PeerTube " + pair.server->text + " at " + url +
                                         "; with the runner here: " +
                                         std::string(peertube::SupportName(pair.verdict.support))));
    } else {
      results.push_back(dra::Fail("peertube-server",
                                  "cannot reach PeerTube at " + url + ": " + pair.server_error,
                                  "check the URL in /etc/media-worker/N.env, the network and "
                                  "PeerTube itself (curl " +
                                      url + "/api/v1/config)"));
    }
    if (!runner) runner = pair;
  }
  if (!runner) runner = ReadPeerTubePair("", {"peertube-runner"});
  if (runner->runner && runner->runner_runs) {
    results.push_back(dra::Ok("peertube-runner", "peertube-runner " + runner->runner->text));
  } else {
    // The error ends with how to install it.
    results.push_back(dra::Fail("peertube-runner", "peertube-runner: " + runner->runner_error,
                                "install the runner the units start (docs/worker/nvidia-box.md)"));
  }
  return results;
}

std::unique_ptr<WorkerCommand> AddWorkerCommand(CLI::App& app) {
  return std::make_unique<Worker>(app);
}

}  // namespace mc
