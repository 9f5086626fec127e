#include "cli/worker_command.h"

#include <chrono>
#include <iostream>
#include <string>

#include "cli/query_batch_command.h"
#include "dra/probe_pipeline.h"
#include "query/query_command.h"
#include "worker/probe_contract.h"
#include "worker/probe_contract_json.h"

namespace mc {
namespace {

// ProbeFlags are the options every subcommand that probes the GPU takes.
struct ProbeFlags {
  worker::ContractRequest contract;
  DiscoveryRoots roots;
  double deadline_seconds = std::chrono::duration<double>(kQueryDeadline).count();
  std::string output = "table";

  void AddTo(CLI::App* command) {
    command->add_option("--gpu", contract.gpu, "the GPU: a device name such as pci-0000-00-06-0, or a PCI address")
        ->required();
    command->add_option("--probe-module", contract.module, "nvidia-nvenc, vaapi or intel-qsv; default: the GPU's own");
    command->add_option("-o,--output", output, "table or json")->check(CLI::IsMember({"table", "json"}));
    command->add_option("--sysfs-root", roots.sysfs, "where sysfs is mounted")->capture_default_str();
    command->add_option("--dev-root", roots.dev, "where /dev is")->capture_default_str();
    command->add_option("--query-deadline", deadline_seconds, "seconds one driver query may take before it is killed")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
  }

  ProbeRequest Request() const {
    ProbeRequest request;
    request.roots = roots;
    request.query.program = "/proc/self/exe";
    request.query.in_process_query = RunQueryTarget;
    request.query.deadline = std::chrono::milliseconds(static_cast<std::int64_t>(deadline_seconds * 1000.0));
    return request;
  }
};

class Worker : public WorkerCommand {
 public:
  explicit Worker(CLI::App& app) {
    command_ = app.add_subcommand("worker", "the PeerTube transcoding worker's view of its own GPU");
    command_->require_subcommand(1);
    probe_ = command_->add_subcommand("probe", "whether this GPU may take transcoding work, and what it can do");
    probe_flags_.AddTo(probe_);
  }

  bool Selected() const override { return command_->parsed(); }

  int Run() override {
    if (probe_->parsed()) return RunProbe();
    return 2;
  }

 private:
  int RunProbe() {
    const ProbeResult probe = ProbeGpus(probe_flags_.Request());
    for (const DeviceReport& report : probe.reports) {
      for (const std::string& line : LogLines(report)) std::cerr << line << "\n";
    }
    const worker::ProbeContract contract = worker::ContractFor(probe, probe_flags_.contract);
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

  CLI::App* command_ = nullptr;
  CLI::App* probe_ = nullptr;
  ProbeFlags probe_flags_;
};

}  // namespace

std::unique_ptr<WorkerCommand> AddWorkerCommand(CLI::App& app) { return std::make_unique<Worker>(app); }

}  // namespace mc
