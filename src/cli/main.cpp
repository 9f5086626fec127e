// media-capabilities: one binary, several subcommands. For the probe and the DRA driver:
//  - `probe` prints what this machine's GPUs state;
//  - `agent` publishes it to the cluster and serves the kubelet plugin;
//  - `doctor` checks what a claim needs on this node and in the cluster;
//  - `docs` prints a generated reference page;
//  - `query-va`, `query-nvidia` and `query-batch` are the internal children that ask the
//    drivers.
// For transcoding (cli/transcoding_subcommands.h):
//  - `worker …`;
//  - the pool manager `pool …`;
//  - `ffmpeg-plan`;
//  - the ffmpeg wrapper the runner calls (`ffmpeg`, or the binary linked as ffmpeg or ffprobe).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/agent_module.h"
#include "cli/doctor_command.h"
#include "cli/option_checks.h"
#include "cli/probe_command.h"
#include "cli/query_batch_command.h"
#include "cli/roots_from_environment.h"
#include "cli/shared_options.h"
#include "cli/transcoding_subcommands.h"
#include "probe/capabilities/attribute_reference.h"
#include "probe/query/child/nvidia_child.h"
#include "probe/query/child/va_child.h"

namespace {

// SelfExecutable is the path the query children are started from: this very binary, so
// the parent and its children can never be of different versions.
std::string SelfExecutable() { return "/proc/self/exe"; }

double DefaultDeadlineSeconds() {
  return std::chrono::duration<double>(mc::probe::kQueryDeadline).count();
}

std::chrono::milliseconds Milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}

// `probe`: what this machine's GPUs state, printed.
struct ProbeSubcommand {
  mc::ProbeOptions probe;
  std::string output = "table";
  double deadline_seconds = DefaultDeadlineSeconds();
  CLI::App* command = nullptr;

  void AddTo(CLI::App& app) {
    probe.request.roots = mc::RootsFromEnvironment();
    probe.request.query.program = SelfExecutable();
    // The probe has one thread, so its queries fork from it and no batch is started.
    probe.request.query.fork_from_caller = true;
    command = app.add_subcommand("probe", "print what this machine's GPUs state");
    command->add_option("-o,--output", output, "table, wide, json or yaml")
        ->check(mc::OneOf({"table", "wide", "json", "yaml"}, "format"));
    command->add_option("--render-node", probe.request.render_nodes,
                        "probe only this render node (repeatable), such as /dev/dri/renderD128");
    mc::AddDiscoveryRootOptions(*command, probe.request.roots);
    mc::AddQueryDeadlineOption(*command, deadline_seconds);
    command->add_flag(
        "--measure-sessions", probe.request.measure_sessions,
        "on NVIDIA GPUs, open encode sessions until one is refused, and log the count");
  }

  int Run() {
    probe.output = output == "json"   ? mc::ProbeOutput::kJson
                   : output == "yaml" ? mc::ProbeOutput::kYaml
                   : output == "wide" ? mc::ProbeOutput::kWide
                                      : mc::ProbeOutput::kTable;
    probe.request.query.deadline = Milliseconds(deadline_seconds);
    return mc::RunProbe(probe);
  }
};

// `agent`: the node's GPUs published as ResourceSlices, and the kubelet plugin served.
struct AgentSubcommand {
  mc::dra::AgentCommand agent;
  std::string render_node_source = "liken";
  double deadline_seconds = DefaultDeadlineSeconds();
  CLI::App* command = nullptr;

  void AddTo(CLI::App& app) {
    // The agent finds the GPUs where the probe does. A fake machine's roots come from the
    // environment, as for every command that looks at the GPUs.
    agent.agent.roots = mc::RootsFromEnvironment();
    agent.agent.query.program = SelfExecutable();
    if (const char* node = std::getenv("NODE_NAME")) agent.agent.node_name = node;
    if (const char* pod = std::getenv("POD_NAME")) agent.agent.pod.name = pod;
    if (const char* pod_namespace = std::getenv("POD_NAMESPACE"))
      agent.agent.pod.namespace_name = pod_namespace;
    command = app.add_subcommand(
        "agent", "publish this node's GPUs as ResourceSlices and serve the kubelet plugin");
    command->add_option("--kubeconfig", agent.kubeconfig,
                        "a kubeconfig; without it, the in-cluster configuration");
    command->add_option("--node-name", agent.agent.node_name, "the node (default: $NODE_NAME)");
    command->add_option(
        "--pod-name", agent.agent.pod.name,
        "the agent's own pod, evicted when a render node appears that is not in it (default: "
        "$POD_NAME; without it, the agent only warns)");
    command->add_option("--pod-namespace", agent.agent.pod.namespace_name,
                        "the namespace of the agent's pod (default: $POD_NAMESPACE)");
    command->add_option("--driver-name", agent.agent.driver_name, "the DRA driver name")
        ->capture_default_str();
    command
        ->add_option(
            "--render-nodes", render_node_source,
            "liken: the render nodes liken publishes for this node; sysfs: every GPU sysfs shows")
        ->check(mc::OneOf({"liken", "sysfs"}, "render node source"))
        ->capture_default_str();
    mc::AddDiscoveryRootOptions(*command, agent.agent.roots);
    mc::AddQueryDeadlineOption(*command, deadline_seconds);
    command->add_option("--plugins-dir", agent.agent.plugins_dir, "the kubelet's plugin directory")
        ->capture_default_str();
    command
        ->add_option("--registry-dir", agent.agent.registry_dir,
                     "the kubelet's plugin registration directory")
        ->capture_default_str();
    command
        ->add_option("--health-address", agent.agent.health_address,
                     "HOST:PORT of /livez, /readyz and /metrics; port 0 picks a free one")
        ->capture_default_str();
  }

  int Run() {
    agent.agent.source = render_node_source == "sysfs" ? mc::dra::RenderNodeSource::kSysfs
                                                       : mc::dra::RenderNodeSource::kLiken;
    agent.agent.query.deadline = Milliseconds(deadline_seconds);
    return mc::RunAgentModule(std::move(agent));
  }
};

// The internal subcommands, hidden from the help: the children that ask the drivers.
struct QuerySubcommands {
  std::string render_node;
  std::string pci_address;
  mc::probe::NvidiaQueryOptions nvidia_options;
  std::vector<std::string> batch_targets;
  std::int64_t batch_deadline_ms = mc::probe::kQueryDeadline.count();
  CLI::App* query_va = nullptr;
  CLI::App* query_nvidia = nullptr;
  CLI::App* query_batch = nullptr;

  void AddTo(CLI::App& app) {
    query_va = app.add_subcommand("query-va", "internal: query one render node's VA-API driver");
    query_va->group("");
    query_va->add_option("node", render_node, "the render node")->required();

    query_nvidia = app.add_subcommand("query-nvidia",
                                      "internal: query one NVIDIA GPU's CUDA, NVDEC and NVENC");
    query_nvidia->group("");
    query_nvidia
        ->add_option("pci-address", pci_address, "the GPU's PCI address, such as 0000:01:00.0")
        ->required();
    query_nvidia->add_flag("--measure-sessions", nvidia_options.measure_sessions,
                           "also open encode sessions until one is refused, and report the count");

    query_batch = app.add_subcommand("query-batch",
                                     "internal: run every query of a pass, each in a forked child");
    query_batch->group("");
    query_batch->add_option("--deadline-ms", batch_deadline_ms, "each query's deadline")
        ->check(mc::MoreThanZero("milliseconds"));
    query_batch->add_option("targets", batch_targets, "va=NODE, nvidia=PCI or nvidia+sessions=PCI")
        ->required();
  }

  // Runs the query that was chosen, or gives nullopt when none was.
  std::optional<int> Run() {
    if (*query_va) return mc::probe::RunQueryVa(render_node);
    if (*query_batch)
      return mc::RunQueryBatchCommand(batch_targets, std::chrono::milliseconds(batch_deadline_ms));
    if (*query_nvidia) return mc::probe::RunQueryNvidia(pci_address, nvidia_options);
    return std::nullopt;
  }
};

// `docs`: a generated reference page, printed.
struct DocsSubcommand {
  std::string topic;
  CLI::App* command = nullptr;

  void AddTo(CLI::App& app) {
    command = app.add_subcommand("docs", "print a generated reference page");
    command->add_option("topic", topic, "the page")
        ->required()
        ->check(mc::OneOf({"attributes"}, "page"));
  }

  int Run() {
    std::cout << mc::probe::AttributeReferenceMarkdown();
    return std::cout ? 0 : 1;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (std::optional<int> status = mc::RunAsWrapper(argc, argv)) return *status;
  CLI::App app{"media-capabilities: publishes what each GPU's video engine can do"};
  app.require_subcommand(1);

  ProbeSubcommand probe;
  probe.AddTo(app);
  AgentSubcommand agent;
  agent.AddTo(app);
  QuerySubcommands queries;
  queries.AddTo(app);
  DocsSubcommand docs;
  docs.AddTo(app);
  const std::function<int()> run_doctor = mc::AddDoctorCommand(app);
  const std::function<std::optional<int>()> run_transcoding = mc::AddTranscodingSubcommands(app);
  mc::ExplainNumberMistakes(app);

  if (const std::string unknown = mc::UnknownSubcommand(app, {argv + 1, argv + argc});
      !unknown.empty()) {
    std::cerr << "media-capabilities: " << unknown << "\n";
    return 2;
  }
  CLI11_PARSE(app, argc, argv);

  if (*probe.command) return probe.Run();
  if (*agent.command) return agent.Run();
  if (app.got_subcommand("doctor")) return run_doctor();
  if (std::optional<int> status = run_transcoding()) return *status;
  if (std::optional<int> status = queries.Run()) return *status;
  if (*docs.command) return docs.Run();
  return 2;
}
