#include "cli/query_nvidia_command.h"

#include "cli/report_child.h"
#include "facts/nvidia_facts_json.h"

namespace mc {

int RunQueryNvidia(const std::string& pci_address, const NvidiaQueryOptions& options) {
  return RunReportChild("query-nvidia", [&]() -> Result<std::string> {
    Result<NvidiaFacts> facts = QueryNvidiaDriver(pci_address, options);
    if (!facts) return Error{facts.error()};
    return NvidiaFactsToJson(*facts);
  });
}

}  // namespace mc
