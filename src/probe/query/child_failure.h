// How a failed child is described in the log: the same wording for every query a child
// runs, so that an operator learns one set of phrases.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "probe/query/child_process.h"

namespace mc::probe {

// DescribeChildFailure gives the reason a child failed, quoting its stderr word for word,
// or nullopt when it exited 0.
std::optional<std::string> DescribeChildFailure(const ChildOutcome& outcome,
                                                std::chrono::milliseconds deadline);

}  // namespace mc::probe
