// `media-capabilities query-batch --deadline-ms N TARGET...`: the internal process in which
// every query of a pass runs, each in a forked child (src/probe/query/query_batch.h).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace mc {

int RunQueryBatchCommand(const std::vector<std::string>& target_arguments,
                         std::chrono::milliseconds deadline);

}  // namespace mc
