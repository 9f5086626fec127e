#include "probe/query/child/va_child.h"

#include "probe/facts/va_facts_json.h"
#include "probe/query/child/report_child.h"
#include "probe/va/va_query.h"

namespace mc::probe {

int RunQueryVa(const std::string& render_node) {
  return RunReportChild("query-va", [&]() -> Result<std::string> {
    Result<VaFacts> facts = QueryVaDriver(render_node);
    if (!facts) return facts.error();
    return VaFactsToJson(*facts);
  });
}

}  // namespace mc::probe
