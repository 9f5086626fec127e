// The options several subcommands share, each declared once, so that every subcommand that
// takes one gives it the same name, help text and default. Each binds the option to a member
// of the caller's value type, whose initial value is the default the help shows.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "probe/gpu/render_node_discovery.h"

namespace mc {

// MachineFiles are where a worker subcommand finds this machine's files. The defaults are the
// real machine's; the tests' fake machines replace them.
struct MachineFiles {
  std::string proc_root = "/proc";
  std::string kernel_log = "/dev/kmsg";
  std::string nvml_library = "libnvidia-ml.so.1";
  // Empty means the default one (worker::DefaultStateDir).
  std::string state_dir;
};

// --sysfs-root and --dev-root: where sysfs and /dev are, for every subcommand that finds GPUs.
void AddDiscoveryRootOptions(CLI::App& command, probe::DiscoveryRoots& roots);
// --query-deadline: the seconds one driver query may take before it is killed.
CLI::Option* AddQueryDeadlineOption(CLI::App& command, double& seconds);
// --proc-root: where /proc is.
CLI::Option* AddProcRootOption(CLI::App& command, std::string& proc_root);
// --nvml-library: the NVML library to load.
CLI::Option* AddNvmlLibraryOption(CLI::App& command, std::string& nvml_library);
// --kernel-log: the kernel log searched for NVIDIA Xid errors.
CLI::Option* AddKernelLogOption(CLI::App& command, std::string& kernel_log);
// --state-dir: the worker's state directory.
CLI::Option* AddStateDirOption(CLI::App& command, std::string& state_dir);

}  // namespace mc
