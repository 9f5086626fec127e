#include "cli/doctor_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/option_checks.h"
#include "cli/roots_from_environment.h"
#include "cli/shared_options.h"
#include "cli/transcoding_subcommands.h"
#include "common/base/self_executable.h"
#include "dra/doctor/cluster_module.h"
#include "dra/doctor/doctor.h"
#include "dra/doctor/report_format.h"
#include "dra/doctor/va_driver_rules.h"

namespace mc {
namespace {

struct DoctorOptions {
  std::string output = "text";
  std::string kubeconfig;
  std::string node_name;
  dra::NodeRoots roots;
  double deadline_seconds = std::chrono::duration<double>(probe::kQueryDeadline).count();
};

std::optional<std::string> Environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// The node the cluster checks ask about: --node-name, else $NODE_NAME (the DaemonSet sets it).
// Else it is this machine's host name; a kubelet takes that as its node's name by default.
std::string NodeName(const DoctorOptions& options) {
  if (!options.node_name.empty()) return options.node_name;
  if (std::optional<std::string> node = Environment("NODE_NAME"); node && !node->empty())
    return *node;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

dra::CheckResults ClusterResults(const DoctorOptions& options) {
  Result<std::unique_ptr<dra::ClusterApi>> api =
      dra::OpenClusterApi({.kubeconfig = options.kubeconfig});
  if (!api) return dra::ClusterUnreachable(api.error_message());
  return dra::RunClusterChecks(**api, {.node = NodeName(options)});
}

int RunDoctor(const DoctorOptions& options) {
  dra::NodeRequest request{.roots = options.roots};
  request.libva = {.drivers_path = Environment("LIBVA_DRIVERS_PATH"),
                   .driver_name = Environment("LIBVA_DRIVER_NAME"),
                   .default_dir = std::string(dra::LibvaDefaultDriversDir())};
  request.query.program = SelfExecutable().string();
  // The doctor has one thread, so its queries fork from it, as the probe's do.
  request.query.fork_from_caller = true;
  request.query.deadline =
      std::chrono::milliseconds(static_cast<std::int64_t>(options.deadline_seconds * 1000.0));
  // The cluster is asked with a kubeconfig, or in a pod, where the service account is. Without
  // one this is a bare-metal box: no remedy names a cluster's objects.
  request.cluster =
      !options.kubeconfig.empty() || !Environment("KUBERNETES_SERVICE_HOST").value_or("").empty();
  dra::CheckResults results = dra::NodeChecks(dra::GatherNodeInput(request));
  if (request.cluster) {
    for (dra::CheckResult& result : ClusterResults(options)) results.push_back(std::move(result));
  } else {
    for (dra::CheckResult& result : TranscodingDoctorChecks(options.roots.proc))
      results.push_back(std::move(result));
  }
  results = dra::InOrder(std::move(results));
  std::cout << (options.output == "json" ? dra::ReportJson(results) : dra::ReportText(results));
  std::cout.flush();
  if (!std::cout) return 1;
  return dra::AnyFailed(results) ? 1 : 0;
}

}  // namespace

std::function<int()> AddDoctorCommand(CLI::App& app) {
  auto options = std::make_shared<DoctorOptions>();
  options->roots.discovery = RootsFromEnvironment();
  if (std::optional<std::string> proc = Environment("MEDIA_CAP_PROC_ROOT"); proc && !proc->empty())
    options->roots.proc = *proc;
  CLI::App* command = app.add_subcommand(
      "doctor", "check what a claim or a capability needs on this node and in the cluster");
  command->add_option("-o,--output", options->output, "text or json")
      ->check(OneOf({"text", "json"}, "format"))
      ->capture_default_str();
  command->add_option("--kubeconfig", options->kubeconfig,
                      "also check the cluster through this kubeconfig (in a pod: its service "
                      "account)");
  command->add_option(
      "--node-name", options->node_name,
      "the node the cluster checks look at (default: $NODE_NAME, else the host name)");
  AddDiscoveryRootOptions(*command, options->roots.discovery);
  AddProcRootOption(*command, options->roots.proc);
  AddQueryDeadlineOption(*command, options->deadline_seconds);
  return [command, options] { return *command ? RunDoctor(*options) : 2; };
}

}  // namespace mc
