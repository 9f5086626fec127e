// Gathers the status document's inputs from the machine:
// - the probe contract;
// - NVML's counters;
// - the host's CPU, memory and disk;
// - the platform and the kernel log.
// From them it works out the concurrency and the state. Everything it reads has a root or a path
// that tests can point elsewhere. Everything it cannot read is named in the inputs' problems.
#pragma once

#include <optional>
#include <string>

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/platform.h"
#include "worker/probe_contract/worker_config.h"
#include "worker/self_test/self_test_report.h"
#include "worker/status/status_document.h"
#include "worker/status/worker_state.h"

namespace mc::worker {

struct LiveFacts {
  bool registered = false;
  std::optional<PeerTubeVersions> peertube;
  bool drain_requested = false;
  bool drain_timed_out = false;
  bool enable_requested = false;
  // The Xid record (its sequence number) the operator's enable acknowledged. It and the records
  // before it count no more.
  std::optional<std::uint64_t> acknowledged_xid;
  // The state the worker decided last; the next decision starts from it. Absent where the
  // gatherer's own last state is the one.
  std::optional<WorkerState> state;
  // The pool's concurrency hint. The resources still bound it.
  std::optional<std::int64_t> concurrency_hint;
  std::int64_t active_jobs = 0;
  // The encode sessions this worker's own wrappers hold now.
  std::int64_t sessions_held = 0;
  // The last canary's verdict and, where it failed, why. Also all that is known of canaries.
  std::optional<bool> canary_ok;
  std::string canary_detail;
  Canaries canary;
  JobCounters jobs;
  std::optional<LastJobEvidence> last_job;
  nlohmann::json last_job_record = nullptr;
  std::vector<nlohmann::json> recent_jobs;
  TransferRates transfer;
};

struct GatherOptions {
  WorkerConfig config;
  probe::ProbeRequest probe;
  PlatformRoots platform;
  std::string proc_root = "/proc";
  std::string kernel_log = "/dev/kmsg";
  std::string nvml_library = "libnvidia-ml.so.1";
  WorkerState previous = WorkerState::kGpuUnavailable;
  std::optional<SelfTestReport> self_test;
  // Where `worker self-test` kept its last report. When set and self_test is not, this GPU's report
  // is read from there.
  std::string self_test_state_dir;
  JobCosts costs;
  // What a running worker knows that the machine does not show. That is its operator's requests,
  // its jobs, and its wrappers' session slots. `worker status` leaves them as they are.
  LiveFacts live;
};

// ApplyLiveJobs copies what the worker knows of its jobs into a document's inputs.
void ApplyLiveJobs(const LiveFacts& live, StatusInputs& inputs);

// GatherStatus probes the GPU and reads everything else.
StatusInputs GatherStatus(const GatherOptions& options);

// GatherStatus with a probe already made reads the counters alone (NVML, the host, the kernel log).
// Then it decides again. A server does this between its full probes.
StatusInputs GatherStatus(const GatherOptions& options, const probe::ProbeResult& probe);

}  // namespace mc::worker
