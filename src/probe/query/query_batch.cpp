#include "probe/query/query_batch.h"

#include <cstdio>
#include <iostream>

#include "probe/query/child/run_query_target.h"
#include "probe/query/child_failure.h"
#include "probe/query/child_outcome_json.h"

namespace mc::probe {
namespace {

std::vector<ChildOutcome> EveryTargetFailed(std::size_t count, const std::string& why) {
  return std::vector<ChildOutcome>(count, ChildOutcome{ChildOutcome::Kind::kExited, 1, "", why});
}

std::vector<ChildOutcome> ForkQueries(const std::vector<QueryTarget>& targets,
                                      std::chrono::milliseconds deadline,
                                      const std::function<int(const QueryTarget&)>& query) {
  std::vector<ChildSpec> children;
  for (const QueryTarget& target : targets)
    children.push_back({{}, [&query, target] { return query(target); }});
  return RunChildren(children, deadline);
}

}  // namespace

std::vector<ChildOutcome> RunQueryBatch(const QueryCommand& command,
                                        const std::vector<QueryTarget>& targets) {
  if (targets.empty()) return {};
  if (command.fork_from_caller) return ForkQueries(targets, command.deadline, RunQueryTarget);
  std::vector<std::string> argv = {command.program, "query-batch", "--deadline-ms",
                                   std::to_string(command.deadline.count())};
  for (const QueryTarget& target : targets) argv.push_back(TargetArgument(target));
  const ChildOutcome batch = RunChildren({argv}, command.deadline + kBatchGrace, 64 << 20)[0];
  if (auto failure = DescribeChildFailure(batch, command.deadline + kBatchGrace)) {
    return EveryTargetFailed(targets.size(), "the query batch failed: " + *failure);
  }
  Result<std::vector<ChildOutcome>> outcomes = ParseOutcomes(batch.out);
  if (!outcomes)
    return EveryTargetFailed(targets.size(), "the query batch wrote outcomes that do not parse: " +
                                                 outcomes.error_message());
  if (outcomes->size() != targets.size()) {
    return EveryTargetFailed(targets.size(),
                             "the query batch gave " + std::to_string(outcomes->size()) +
                                 " outcomes for " + std::to_string(targets.size()) + " queries");
  }
  return std::move(outcomes).value();
}

int RunQueryBatchChild(const std::vector<QueryTarget>& targets, std::chrono::milliseconds deadline,
                       const std::function<int(const QueryTarget&)>& query) {
  const std::vector<ChildOutcome> outcomes = ForkQueries(targets, deadline, query);
  std::cout << OutcomesToJson(outcomes);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace mc::probe
