#include "cli/shared_options.h"

namespace mc {

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
