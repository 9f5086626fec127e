// The pressure index: how far the queue is behind the eligible workers.
// It runs from 0 (nothing waits) to 1.
// At 1, two full waves wait, or the oldest job has waited the full age.
#pragma once

#include "pool/policy/config.h"
#include "pool/policy/time.h"

namespace mc::pool {

// P = clamp01(max(pending_depth / (waves · slots), oldest_age / age_full)). With no slot at
// all, any pending job is full pressure.
double PressureIndex(int pending_depth, int capacity_slots, Duration oldest_age,
                     const PressureConfig& config);

}  // namespace mc::pool
