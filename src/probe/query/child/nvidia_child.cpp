#include "probe/query/child/nvidia_child.h"

#include "probe/facts/nvidia_facts_json.h"
#include "probe/query/child/report_child.h"

namespace mc::probe {

int RunQueryNvidia(const std::string& pci_address, const NvidiaQueryOptions& options) {
  return RunReportChild("query-nvidia", [&]() -> Result<std::string> {
    Result<NvidiaFacts> facts = QueryNvidiaDriver(pci_address, options);
    if (!facts) return facts.error();
    return NvidiaFactsToJson(*facts);
  });
}

}  // namespace mc::probe
