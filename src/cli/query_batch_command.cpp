#include "cli/query_batch_command.h"

#include <cstdio>

#include "probe/query/child/run_query_target.h"
#include "probe/query/query_batch.h"

namespace mc {

int RunQueryBatchCommand(const std::vector<std::string>& target_arguments,
                         std::chrono::milliseconds deadline) {
  std::vector<probe::QueryTarget> targets;
  for (const std::string& argument : target_arguments) {
    Result<probe::QueryTarget> target = probe::ParseTargetArgument(argument);
    if (!target) {
      std::fprintf(stderr, "query-batch: %s\n", target.error_message().c_str());
      return 2;
    }
    targets.push_back(std::move(target).value());
  }
  return probe::RunQueryBatchChild(targets, deadline, probe::RunQueryTarget);
}

}  // namespace mc
