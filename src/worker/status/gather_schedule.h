// When a serving worker gathers again, and how much:
// - the counters (NVML, the host, the kernel log), every PT_WORKER_COUNTER_INTERVAL;
// - a full probe of the GPU, every PT_WORKER_PROBE_INTERVAL;
// - a full probe every PT_WORKER_UNAVAILABLE_REPROBE while the probe refuses the GPU.
// The probe refuses it when its driver or a library is missing, or its query fails. The shorter
// interval finds a driver installed later within a minute rather than five.
#pragma once

#include <chrono>

#include "worker/probe_contract/worker_config.h"

namespace mc::worker {

struct GatherPlan {
  // A full probe rather than the counters alone.
  bool full_probe = false;
  // How long from now until it is due. Zero when it is due already.
  std::chrono::seconds after{0};
};

// NextGather is a pure function of three facts:
// - how long ago the last probe was;
// - how long ago the counters were last read;
// - whether the last probe accepted the GPU.
// A probe reads the counters too. So a probe due no later than the counters takes their place.
GatherPlan NextGather(std::chrono::seconds since_probe, std::chrono::seconds since_counters,
                      bool probe_ok, const WorkerConfig& config);

}  // namespace mc::worker
