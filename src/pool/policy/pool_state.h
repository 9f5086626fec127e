// The manager's memory between cycles:
//  - its view of each worker, layered on the worker's own admission state;
//  - the learned weights;
//  - the pool-wide hysteresis clocks.
// The view is one of COLD, SPARE, WARM, ACTIVE, DRAINING, COOLDOWN.
// Decide takes one PoolState and returns the next.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

enum class ManagerState {
  kCold,      // powered off or suspended; wakeable over the LAN
  kSpare,     // service up, admission DRAINED: registered and idle (the resting state)
  kWarm,      // as SPARE, with persistence mode on and a recent green probe
  kActive,    // admission AVAILABLE at the worker's concurrency
  kDraining,  // admission DRAINING: in-flight jobs finish, no new ones
  kCooldown,  // DRAINING after repeated failures, and kept out for a while
};

std::string_view ManagerStateName(ManagerState state);

// Why a worker drains, which decides where it goes once empty.
enum class DrainCause { kNone, kScaleDown, kFault, kVendorDisabled };

// One class's learned weight: an EWMA of output pixel rate over the class baseline, and how
// many jobs fed it.
struct ClassWeight {
  double ewma = 0;
  int jobs = 0;
};

struct WorkerRecord {
  std::string name;
  ManagerState state = ManagerState::kSpare;
  TimePoint since;  // when it entered `state`
  DrainCause drain_cause = DrainCause::kNone;
  std::optional<TimePoint> idle_since;  // ACTIVE with no job since then
  std::vector<TimePoint> failures;      // faults inside the failure window
  std::optional<TimePoint> cooldown_until;
  std::array<ClassWeight, kJobClassCount> weights{};
  int jobs_completed_seen = -1;  // -1: not seen yet
  int jobs_failed_seen = -1;
  std::vector<TimePoint> wakes;  // inside the last day
  std::optional<TimePoint> wake_started;
  bool small_jobs_shifted = false;  // S and M withdrawn for NVENC session pressure
};

struct PoolState {
  std::vector<WorkerRecord> workers;
  std::optional<TimePoint> high_since;  // P at or above the up threshold since then
  std::optional<TimePoint> low_since;   // P at or below the down threshold since then
  std::optional<TimePoint> wake_since;  // P at or above the wake threshold since then
  std::optional<TimePoint> last_promotion;
  std::optional<TimePoint> last_wake;
  std::optional<TimePoint> queue_lost_since;
};

}  // namespace mc::pool
