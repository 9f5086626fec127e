// The parent's side of every query child, whatever it asks. It turns each outcome into the facts
// its report states. Or into a failed result, with the words that explain it. A VA-API and an
// NVIDIA query differ only in the target and the report's parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "probe/query/child_failure.h"
#include "probe/query/child_process.h"

namespace mc::probe {

// FactsFromOutcome: one child's result, its failure described or its report parsed.
template <typename Facts>
Result<Facts> FactsFromOutcome(const ChildOutcome& outcome, std::chrono::milliseconds deadline,
                               Result<Facts> (*parse)(std::string_view)) {
  if (auto failure = DescribeChildFailure(outcome, deadline)) {
    return outcome.kind == ChildOutcome::Kind::kTimedOut ? DeadlineExceeded(*failure)
                                                         : Unavailable(*failure);
  }
  Result<Facts> facts = parse(outcome.out);
  if (!facts)
    return InvalidInput("the query wrote a report that does not parse: " + facts.error_message());
  return facts;
}

// FactsFromOutcomes reads every outcome, in order.
template <typename Facts>
std::vector<Result<Facts>> FactsFromOutcomes(const std::vector<ChildOutcome>& outcomes,
                                             std::chrono::milliseconds deadline,
                                             Result<Facts> (*parse)(std::string_view)) {
  std::vector<Result<Facts>> results;
  results.reserve(outcomes.size());
  for (const ChildOutcome& outcome : outcomes)
    results.push_back(FactsFromOutcome(outcome, deadline, parse));
  return results;
}

}  // namespace mc::probe
