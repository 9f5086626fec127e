// The libva query of one render node: the same questions vainfo asks, answered by the
// driver libva loads for the node. It runs in a child process (`query-va NODE`), because a
// driver can hang or crash, and the agent must outlive both.
#pragma once

#include <string>

#include "common/base/result.h"
#include "probe/facts/va_facts.h"

namespace mc::probe {

// QueryVaDriver opens `render_node`, initialises libva on it and collects the driver's
// statements. It fails when the node cannot be opened or libva cannot initialise a driver
// on it; a call that fails for one profile afterwards becomes a warning in the facts, and
// the rest of the answer is kept.
Result<VaFacts> QueryVaDriver(const std::string& render_node);

}  // namespace mc::probe
