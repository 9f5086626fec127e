// The pool page for a simulated run (`pool simulate --html FILE`): the workers as the run left
// them, its last decisions, and its charts over the simulated span, drawn as the service's
// page draws them, so an admin's what-if has the picture of a real day.
#pragma once

#include <string>
#include <vector>

#include "pool/page/pool_page.h"
#include "pool/simulator/sim_workers.h"
#include "pool/simulator/simulator.h"

namespace mc::pool {

// `result` is a run kept with its log (SimOptions::keep_log) for the decisions to show;
// `description` names the run ("burst.jsonl under ours"); the waits are drawn against
// `target_wait` (the run's policy.target_wait; 0: none).
PoolPageInput SimulatedPageInput(const SimResult& result, const std::vector<SimWorkerSpec>& workers,
                                 const std::string& description, Duration target_wait);

}  // namespace mc::pool
