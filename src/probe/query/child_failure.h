// How the log describes a failed child. Every query a child runs uses the same wording. So an
// operator learns one set of phrases.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "probe/query/child_process.h"

namespace mc::probe {

// DescribeChildFailure gives why a child failed, quoting its stderr word for word. nullopt when it
// exited 0.
std::optional<std::string> DescribeChildFailure(const ChildOutcome& outcome,
                                                std::chrono::milliseconds deadline);

}  // namespace mc::probe
