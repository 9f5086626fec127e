// QueryCommand says how the driver queries of a pass are run:
// - which binary is the query batch;
// - the deadline of each query;
// - whether the caller may fork them itself.
#pragma once

#include <chrono>
#include <string>

namespace mc::probe {

// The deadline of one GPU's query. A driver silent for 20 s is taken as hung.
inline constexpr std::chrono::milliseconds kQueryDeadline{20000};

struct QueryCommand {
  // The binary to run as the query batch; normally this one (/proc/self/exe).
  std::string program;
  std::chrono::milliseconds deadline = kQueryDeadline;
  // When set, the caller has a single thread. Each query forks from it directly, with no batch to
  // start. The probe is such a caller. The agent, which runs threads, is not.
  bool fork_from_caller = false;
};

}  // namespace mc::probe
