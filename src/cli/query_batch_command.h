// `media-capabilities query-batch --deadline-ms N TARGET...`: the internal process in which
// every query of a pass runs, each in a forked child (src/query/query_batch.h).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace mc {

struct QueryTarget;

// RunQueryTarget runs one query as its internal subcommand would, in this process, and
// returns its exit status: the function a forked query child runs.
int RunQueryTarget(const QueryTarget& target);

int RunQueryBatchCommand(const std::vector<std::string>& target_arguments, std::chrono::milliseconds deadline);

}  // namespace mc
