// The pool manager's policy: one pure function.
// Its inputs are the manager's state, this cycle's signals, and now.
// Its outputs are the next state, the actions, and the reasons.
// It reads no clock and keeps nothing between calls.
// The pool service and the simulator both call it.
// So what the simulator shows is what the service does.
// docs/pool/design.md explains every rule.
#pragma once

#include "pool/policy/config.h"
#include "pool/policy/decision.h"
#include "pool/policy/pool_state.h"
#include "pool/policy/signals.h"
#include "pool/policy/time.h"

namespace mc::pool {

Decision Decide(const PoolState& state, const Signals& signals, TimePoint now,
                const PoolConfig& config);

// The same, for a caller that hands its state over rather than keeping it.
// The next state is built in place of this one, with no copy of every worker's record.
Decision Decide(PoolState&& state, const Signals& signals, TimePoint now, const PoolConfig& config);

}  // namespace mc::pool
