// The parent's side of the VA-API query: one child per render node in the query batch, all
// at once, each under the seed's deadline, and every way a child can go wrong turned into a
// failed result with the words that explain it.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "facts/va_facts.h"

namespace mc {

// The seed's deadline for one render node's query.
inline constexpr std::chrono::milliseconds kQueryDeadline{20000};

struct QueryTarget;

struct QueryCommand {
  // The binary to run as the query batch, normally this binary (/proc/self/exe).
  std::string program;
  std::chrono::milliseconds deadline = kQueryDeadline;
  // When set, the caller has a single thread, and each query forks from it directly and
  // runs this, with no batch to start (the probe is such a caller; the agent is not).
  std::function<int(const QueryTarget&)> in_process_query;
};

std::vector<Result<VaFacts>> QueryVaNodes(const QueryCommand& command,
                                          const std::vector<std::string>& render_nodes);

}  // namespace mc
