// Gathering the status document's inputs from the machine: the probe contract, NVML's
// counters, the host's CPU, memory and disk, the platform and the kernel log, and from them
// the concurrency and the state. Everything it reads has a root or a path that tests can
// point elsewhere; everything it cannot read is named in the inputs' problems.
#pragma once

#include <optional>
#include <string>

#include "pipeline/probe_pipeline.h"
#include "worker/platform.h"
#include "worker/self_test_report.h"
#include "worker/status_document.h"
#include "worker/worker_config.h"
#include "worker/worker_state.h"

namespace mc::worker {

struct GatherOptions {
  WorkerConfig config;
  ProbeRequest probe;
  PlatformRoots platform;
  std::string proc_root = "/proc";
  std::string kernel_log = "/dev/kmsg";
  std::string nvml_library = "libnvidia-ml.so.1";
  WorkerState previous = WorkerState::kGpuUnavailable;
  std::optional<SelfTestReport> self_test;
  // Where `worker self-test` kept its last report; when set and self_test is not, the report
  // of this GPU is read from there.
  std::string self_test_state_dir;
  JobCosts costs;
};

// GatherStatus probes the GPU and reads everything else.
StatusInputs GatherStatus(const GatherOptions& options);

// GatherStatus with a probe already made reads the counters alone (NVML, the host, the
// kernel log) and decides again: what a server does between its full probes.
StatusInputs GatherStatus(const GatherOptions& options, const ProbeResult& probe);

}  // namespace mc::worker
