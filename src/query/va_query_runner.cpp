#include "query/va_query_runner.h"

#include "facts/va_facts_json.h"
#include "query/child_failure.h"
#include "query/child_process.h"

namespace mc {

std::vector<Result<VaFacts>> QueryVaNodes(const QueryCommand& command,
                                          const std::vector<std::string>& render_nodes) {
  std::vector<std::vector<std::string>> commands;
  for (const std::string& node : render_nodes) commands.push_back({command.program, "query-va", node});
  const std::vector<ChildOutcome> outcomes = RunChildren(commands, command.deadline);

  std::vector<Result<VaFacts>> results;
  for (const ChildOutcome& outcome : outcomes) {
    if (auto failure = DescribeChildFailure(outcome, command.deadline)) {
      results.emplace_back(Error{*failure});
      continue;
    }
    Result<VaFacts> facts = ParseVaFacts(outcome.out);
    if (!facts) {
      results.emplace_back(Error{"the query wrote a report that does not parse: " + facts.error()});
    } else {
      results.push_back(std::move(facts));
    }
  }
  return results;
}

}  // namespace mc
