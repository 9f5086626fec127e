#include "query/nvidia_query_runner.h"

#include "facts/nvidia_facts_json.h"
#include "query/child_reports.h"

namespace mc {

std::vector<std::string> NvidiaQueryArgv(const QueryCommand& command, const std::string& pci_address,
                                         const NvidiaQueryRunOptions& options) {
  std::vector<std::string> argv = {command.program, "query-nvidia", pci_address};
  if (options.measure_sessions) argv.push_back("--measure-sessions");
  return argv;
}

std::vector<Result<NvidiaFacts>> QueryNvidiaGpus(const QueryCommand& command,
                                                 const std::vector<std::string>& pci_addresses,
                                                 const NvidiaQueryRunOptions& options) {
  std::vector<std::vector<std::string>> commands;
  for (const std::string& address : pci_addresses) commands.push_back(NvidiaQueryArgv(command, address, options));
  return RunReportingChildren<NvidiaFacts>(commands, command.deadline, &ParseNvidiaFacts);
}

}  // namespace mc
