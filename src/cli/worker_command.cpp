#include "cli/worker_command.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include "cli/roots_from_environment.h"
#include "cli/worker_serve.h"
#include "pipeline/probe_pipeline.h"
#include "query/query_command.h"
#include "worker/probe_contract.h"
#include "worker/probe_contract_json.h"
#include "worker/status_document.h"
#include "worker/status_gather.h"
#include "worker/status_server.h"
#include "worker/worker_config.h"

namespace mc {
namespace {

// CommonFlags are the options of every worker subcommand: the settings table's flags (each
// overriding its PT_WORKER_* variable) and where the machine's files are.
struct CommonFlags {
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;
  DiscoveryRoots roots;
  double deadline_seconds = std::chrono::duration<double>(kQueryDeadline).count();
  std::string output = "table";

  void AddTo(CLI::App* command, const std::vector<std::string>& outputs) {
    roots = RootsFromEnvironment();
    for (const worker::Setting& setting : worker::kSettings) {
      const std::string flag(setting.flag);
      options[flag] = command->add_option(flag, values[flag],
                                          std::string(setting.meaning) + " (" + std::string(setting.variable) + ")");
    }
    command->add_option("-o,--output", output, "the form of the answer")->check(CLI::IsMember(outputs));
    command->add_option("--sysfs-root", roots.sysfs, "where sysfs is mounted")->capture_default_str();
    command->add_option("--dev-root", roots.dev, "where /dev is")->capture_default_str();
    command->add_option("--query-deadline", deadline_seconds, "seconds one driver query may take before it is killed")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
  }

  // Config reads the settings: the flags given, else the environment, else the defaults.
  Result<worker::WorkerConfig> Config() const {
    std::map<std::string, std::string> given;
    for (const auto& [flag, option] : options) {
      if (option->count() > 0) given[flag] = values.at(flag);
    }
    return worker::LoadConfig(worker::ProcessEnvironment(), given);
  }

  ProbeRequest Request() const {
    ProbeRequest request;
    request.roots = roots;
    request.query.program = "/proc/self/exe";
    request.query.fork_from_caller = true;
    request.query.deadline = std::chrono::milliseconds(static_cast<std::int64_t>(deadline_seconds * 1000.0));
    return request;
  }
};

void PrintLogLines(const ProbeResult& probe) {
  for (const DeviceReport& report : probe.reports) {
    for (const std::string& line : LogLines(report)) std::cerr << line << "\n";
  }
}

// Worker registers only the word `worker` with the main command line and builds its own
// options when it runs: the settings table gives every subcommand some twenty options, and
// registering them on every start would tax `probe`, which must stay as lean as vainfo.
class Worker : public WorkerCommand {
 public:
  explicit Worker(CLI::App& app) {
    command_ = app.add_subcommand("worker", "the PeerTube transcoding worker's view of its own GPU: probe, status "
                                            "(docs/worker.md)");
    // Everything after `worker`, --help included, is the worker's own command line.
    command_->prefix_command();
    command_->set_help_flag();
  }

  bool Selected() const override { return command_->parsed(); }

  int Run() override {
    CLI::App worker{"the PeerTube transcoding worker's view of its own GPU (docs/worker.md)", "media-capabilities worker"};
    worker.require_subcommand(1);
    probe_ = worker.add_subcommand("probe", "whether this GPU may take transcoding work, and what it can do");
    probe_flags_.AddTo(probe_, {"table", "json"});
    status_ = worker.add_subcommand("status", "the worker's status document: state, GPU, concurrency, counters");
    status_flags_.AddTo(status_, {"table", "json", "prometheus"});
    status_->add_option("--proc-root", proc_root_, "where /proc is")->capture_default_str();
    status_->add_option("--kernel-log", kernel_log_, "the kernel log to search for NVIDIA Xid errors")
        ->capture_default_str();
    status_->add_option("--nvml-library", nvml_library_, "the NVML library to load")->capture_default_str();
    serve_ = worker.add_subcommand(
        "serve", "serve the status document (GET /status) and its metrics (GET /metrics)");
    serve_flags_.AddTo(serve_, {"table"});
    serve_->add_option("--listen", listen_, "HOST:PORT to serve on; port 0 picks a free one")
        ->capture_default_str();
    serve_->add_option("--proc-root", proc_root_, "where /proc is")->capture_default_str();
    serve_
        ->add_option("--kernel-log", kernel_log_, "the kernel log to search for NVIDIA Xid errors")
        ->capture_default_str();
    serve_->add_option("--nvml-library", nvml_library_, "the NVML library to load")
        ->capture_default_str();

    // CLI11 takes the arguments last first.
    std::vector<std::string> arguments = command_->remaining();
    std::reverse(arguments.begin(), arguments.end());
    try {
      worker.parse(arguments);
    } catch (const CLI::ParseError& error) {
      return worker.exit(error);
    }
    if (probe_->parsed()) return RunProbe();
    if (status_->parsed()) return RunStatus();
    if (serve_->parsed()) return RunServeCommand();
    return 2;
  }

 private:
  int RunProbe() {
    Result<worker::WorkerConfig> config = probe_flags_.Config();
    if (!config) {
      std::cerr << "worker probe: " << config.error() << "\n";
      return 2;
    }
    const ProbeResult probe = ProbeGpus(probe_flags_.Request());
    PrintLogLines(probe);
    const worker::ProbeContract contract = worker::ContractFor(probe, {config->gpu, config->probe_module});
    if (probe_flags_.output == "json") {
      std::cout << worker::ContractJson(contract).dump(2) << "\n";
    } else {
      std::cout << worker::ContractTable(contract);
    }
    std::cout.flush();
    if (!std::cout) return 1;
    // A GPU that may not work is a failure of the command, so that a script stops there.
    return contract.ok ? 0 : 1;
  }

  int RunStatus() {
    Result<worker::WorkerConfig> config = status_flags_.Config();
    if (!config) {
      std::cerr << "worker status: " << config.error() << "\n";
      return 2;
    }
    const worker::StatusInputs inputs =
        worker::GatherStatus(GatherOptionsOf(*config, status_flags_));
    if (status_flags_.output == "json") {
      std::cout << worker::StatusDocument(inputs).dump(2) << "\n";
    } else if (status_flags_.output == "prometheus") {
      std::cout << worker::PrometheusText(inputs);
    } else {
      std::cout << worker::StatusTable(inputs);
    }
    std::cout.flush();
    // The status is an answer whatever the state; only a failure to print it fails.
    return std::cout ? 0 : 1;
  }

  int RunServeCommand() {
    Result<worker::WorkerConfig> config = serve_flags_.Config();
    if (!config) {
      std::cerr << "worker serve: " << config.error() << "\n";
      return 2;
    }
    worker::GatherOptions options = GatherOptionsOf(*config, serve_flags_);
    // The server answers on a thread of its own, so the queries may not fork from this
    // process: they run in a query batch, as the agent's do.
    options.probe.query.fork_from_caller = false;
    return RunServe(options, listen_);
  }

  worker::GatherOptions GatherOptionsOf(const worker::WorkerConfig& config,
                                        const CommonFlags& flags) const {
    worker::GatherOptions options;
    options.config = config;
    options.probe = flags.Request();
    options.platform = {.dev = flags.roots.dev, .proc = proc_root_};
    options.proc_root = proc_root_;
    options.kernel_log = kernel_log_;
    options.nvml_library = nvml_library_;
    return options;
  }

  CLI::App* command_ = nullptr;
  CLI::App* probe_ = nullptr;
  CLI::App* status_ = nullptr;
  CommonFlags probe_flags_;
  CommonFlags status_flags_;
  CLI::App* serve_ = nullptr;
  CommonFlags serve_flags_;
  std::string listen_ = worker::kDefaultStatusAddress;
  std::string proc_root_ = "/proc";
  std::string kernel_log_ = "/dev/kmsg";
  std::string nvml_library_ = "libnvidia-ml.so.1";
};

}  // namespace

std::unique_ptr<WorkerCommand> AddWorkerCommand(CLI::App& app) { return std::make_unique<Worker>(app); }

}  // namespace mc
