// QueryCommand says how the driver queries of a pass are run: which binary is the query
// batch, the deadline of each query, and whether the caller may fork them itself.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace mc {

// The seed's deadline for one GPU's query.
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

}  // namespace mc
