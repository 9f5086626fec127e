#include "query/va_query_runner.h"

#include "facts/va_facts_json.h"
#include "query/child_reports.h"

namespace mc {

std::vector<std::string> VaQueryArgv(const QueryCommand& command, const std::string& render_node) {
  return {command.program, "query-va", render_node};
}

std::vector<Result<VaFacts>> QueryVaNodes(const QueryCommand& command,
                                          const std::vector<std::string>& render_nodes) {
  std::vector<std::vector<std::string>> commands;
  for (const std::string& node : render_nodes) commands.push_back(VaQueryArgv(command, node));
  return RunReportingChildren<VaFacts>(commands, command.deadline, &ParseVaFacts);
}

}  // namespace mc
