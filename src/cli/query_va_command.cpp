#include "cli/query_va_command.h"

#include "cli/report_child.h"
#include "facts/va_facts_json.h"
#include "va/va_query.h"

namespace mc {

int RunQueryVa(const std::string& render_node) {
  return RunReportChild("query-va", [&]() -> Result<std::string> {
    Result<VaFacts> facts = QueryVaDriver(render_node);
    if (!facts) return Error{facts.error()};
    return VaFactsToJson(*facts);
  });
}

}  // namespace mc
