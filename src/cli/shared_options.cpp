#include "cli/shared_options.h"

#include "cli/option_checks.h"

namespace mc {

void AddDiscoveryRootOptions(CLI::App& command, probe::DiscoveryRoots& roots) {
  command.add_option("--sysfs-root", roots.sysfs, "where sysfs is mounted")->capture_default_str();
  command.add_option("--dev-root", roots.dev, "where /dev is")->capture_default_str();
}

CLI::Option* AddQueryDeadlineOption(CLI::App& command, double& seconds) {
  return command
      .add_option("--query-deadline", seconds,
                  "seconds one driver query may take before it is killed")
      ->capture_default_str()
      ->check(MoreThanZero("seconds"));
}

CLI::Option* AddProcRootOption(CLI::App& command, std::string& proc_root) {
  return command.add_option("--proc-root", proc_root, "where /proc is")->capture_default_str();
}

CLI::Option* AddNvmlLibraryOption(CLI::App& command, std::string& nvml_library) {
  return command.add_option("--nvml-library", nvml_library, "the NVML library to load")
      ->capture_default_str();
}

CLI::Option* AddKernelLogOption(CLI::App& command, std::string& kernel_log) {
  return command
      .add_option("--kernel-log", kernel_log, "the kernel log to search for NVIDIA Xid errors")
      ->capture_default_str();
}

CLI::Option* AddStateDirOption(CLI::App& command, std::string& state_dir) {
  return command.add_option(
      "--state-dir", state_dir,
      "the worker's state directory: its registration, its socket and the last self-test's "
      "report (default: $XDG_STATE_HOME/peertube-worker, else /var/lib/peertube-worker/state)");
}

}  // namespace mc
