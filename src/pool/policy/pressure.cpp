#include "pool/policy/pressure.h"

#include <algorithm>

namespace mc::pool {

double PressureIndex(int pending_depth, int capacity_slots, Duration oldest_age,
                     const PressureConfig& config) {
  if (pending_depth <= 0) return 0;
  if (capacity_slots <= 0) return 1;
  const double depth = pending_depth / (config.depth_waves * capacity_slots);
  const double age = oldest_age / config.age_full;
  return std::clamp(std::max(depth, age), 0.0, 1.0);
}

}  // namespace mc::pool
