#include "query/nvidia_query_runner.h"

#include "facts/nvidia_facts_json.h"
#include "query/child_reports.h"
#include "query/query_batch.h"

namespace mc {

std::vector<Result<NvidiaFacts>> QueryNvidiaGpus(const QueryCommand& command,
                                                 const std::vector<std::string>& pci_addresses,
                                                 const NvidiaQueryRunOptions& options) {
  std::vector<QueryTarget> targets;
  for (const std::string& address : pci_addresses) {
    targets.push_back({QueryTarget::Api::kNvidia, address, options.measure_sessions});
  }
  return FactsFromOutcomes<NvidiaFacts>(RunQueryBatch(command, targets), command.deadline, &ParseNvidiaFacts);
}

}  // namespace mc
