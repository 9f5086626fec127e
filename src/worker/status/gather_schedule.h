// When a serving worker gathers again, and how much: the counters (NVML, the host, the
// kernel log) every PT_WORKER_COUNTER_INTERVAL, and a full probe of the GPU every
// PT_WORKER_PROBE_INTERVAL, or every PT_WORKER_UNAVAILABLE_REPROBE while the probe refuses
// the GPU (its driver or a library missing, its query failing), so that a driver installed
// later is found within a minute rather than five.
#pragma once

#include <chrono>

#include "worker/probe_contract/worker_config.h"

namespace mc::worker {

struct GatherPlan {
  // A full probe rather than the counters alone.
  bool full_probe = false;
  // How long from now until it is due; zero when it is due already.
  std::chrono::seconds after{0};
};

// NextGather is a pure function of how long ago the last probe and the last reading of the
// counters were, and whether the last probe accepted the GPU. A probe reads the counters too,
// so a probe due no later than the counters takes their place.
GatherPlan NextGather(std::chrono::seconds since_probe, std::chrono::seconds since_counters,
                      bool probe_ok, const WorkerConfig& config);

}  // namespace mc::worker
