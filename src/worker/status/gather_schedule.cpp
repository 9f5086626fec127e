#include "worker/status/gather_schedule.h"

#include <algorithm>

namespace mc::worker {

GatherPlan NextGather(std::chrono::seconds since_probe, std::chrono::seconds since_counters,
                      bool probe_ok, const WorkerConfig& config) {
  const std::chrono::seconds probe_every{probe_ok ? config.probe_interval_s
                                                  : config.unavailable_reprobe_s};
  const std::chrono::seconds counters_every{config.counter_interval_s};
  const std::chrono::seconds probe_in =
      std::max(std::chrono::seconds(0), probe_every - since_probe);
  const std::chrono::seconds counters_in =
      std::max(std::chrono::seconds(0), counters_every - since_counters);
  if (probe_in <= counters_in) return {.full_probe = true, .after = probe_in};
  return {.full_probe = false, .after = counters_in};
}

}  // namespace mc::worker
