// The libva query of one render node. It asks vainfo's questions, answered by the driver libva
// loads for the node. It runs in a child process (`query-va NODE`). A driver can hang or crash, and
// the agent must outlive both.
#pragma once

#include <string>

#include "common/base/result.h"
#include "probe/facts/va_facts.h"

namespace mc::probe {

// QueryVaDriver opens `render_node`, initialises libva on it and collects the driver's statements.
// It fails when the node cannot be opened. It fails when libva cannot initialise a driver on it.
// Later, a call failing for one profile becomes a warning in the facts. The rest of the answer is
// kept.
Result<VaFacts> QueryVaDriver(const std::string& render_node);

}  // namespace mc::probe
