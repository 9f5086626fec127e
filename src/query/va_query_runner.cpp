#include "query/va_query_runner.h"

#include "facts/va_facts_json.h"
#include "query/child_reports.h"
#include "query/query_batch.h"

namespace mc {

std::vector<Result<VaFacts>> QueryVaNodes(const QueryCommand& command,
                                          const std::vector<std::string>& render_nodes) {
  std::vector<QueryTarget> targets;
  for (const std::string& node : render_nodes) targets.push_back({QueryTarget::Api::kVa, node});
  return FactsFromOutcomes<VaFacts>(RunQueryBatch(command, targets), command.deadline, &ParseVaFacts);
}

}  // namespace mc
