// The parent's side of every query child, whatever it asks: run one child per target, all
// at once under the deadline, and turn each outcome into the facts its report states or
// into a failed result with the words that explain it. The VA-API and NVIDIA runners differ
// only in the command line and the report's parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "query/child_failure.h"
#include "query/child_process.h"

namespace mc {

// FactsFromOutcome is one child's result: its failure described, or its report parsed.
template <typename Facts>
Result<Facts> FactsFromOutcome(const ChildOutcome& outcome, std::chrono::milliseconds deadline,
                               Result<Facts> (*parse)(std::string_view)) {
  if (auto failure = DescribeChildFailure(outcome, deadline)) return Error{*failure};
  Result<Facts> facts = parse(outcome.out);
  if (!facts) return Error{"the query wrote a report that does not parse: " + facts.error()};
  return facts;
}

// RunReportingChildren runs the commands and reads each one's report with `parse`; the
// results are in the order of the commands.
template <typename Facts>
std::vector<Result<Facts>> RunReportingChildren(const std::vector<std::vector<std::string>>& commands,
                                                std::chrono::milliseconds deadline,
                                                Result<Facts> (*parse)(std::string_view)) {
  const std::vector<ChildOutcome> outcomes = RunChildren(commands, deadline);
  std::vector<Result<Facts>> results;
  results.reserve(outcomes.size());
  for (const ChildOutcome& outcome : outcomes) results.push_back(FactsFromOutcome(outcome, deadline, parse));
  return results;
}

}  // namespace mc
