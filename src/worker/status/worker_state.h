// The worker's states and the one pure function that moves between them. Every state carries
// its reason in words, so that the pool and an operator see why, not only what.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::worker {

enum class WorkerState {
  kAvailable,       // takes jobs
  kBusy,            // at capacity: sessions at the cap less the reserve, or jobs at the concurrency
  kDraining,        // asked to drain; finishing the jobs it has
  kDrained,         // asked to drain; no job left
  kGpuUnavailable,  // the GPU cannot be trusted with work now; re-probed every minute
  kThermalThrottled,  // the GPU slows itself for heat or power; no new jobs until it stops
  kOffline,           // the driver reported a GPU error; an operator must enable it again
};

std::string_view StateName(WorkerState state);

// StateSignals is everything the transition reads, gathered by the caller.
struct StateSignals {
  bool probe_ok = false;
  std::string probe_reason;
  // WSL2 and not allowed there.
  bool platform_refused = false;
  std::string platform_evidence;
  // The NVIDIA driver's branch, such as 580; absent for other vendors or when unknown.
  std::optional<std::int64_t> driver_branch;
  // NVIDIA's free VRAM; absent where unknown.
  std::optional<std::int64_t> vram_free_mb;
  // The thermal and power throttle reasons in force (nvml_library.h names them).
  std::vector<std::string> thermal_throttle_reasons;
  // The last `NVRM: Xid` line of the kernel log that names this GPU.
  std::optional<std::string> xid_line;
  // The self-test's verdict; absent when it has not run.
  std::optional<bool> self_test_ok;
  std::string self_test_detail;
  // Whether the last job finished without hardware evidence; absent before the first job.
  std::optional<bool> last_job_evidence_ok;
  bool drain_requested = false;
  // The drain ran past its timeout with jobs still running: DRAINED all the same, so that the
  // pool stops waiting, while the jobs run on.
  bool drain_timed_out = false;
  // The operator's `enable`, which is what leaves OFFLINE.
  bool enable_requested = false;
  std::int64_t active_jobs = 0;
  std::int64_t concurrency = 0;
  std::optional<std::int64_t> sessions_active;
  std::optional<std::int64_t> sessions_cap;
};

struct StateLimits {
  std::int64_t driver_min = 550;
  std::int64_t vram_floor_mb = 1024;
  std::int64_t sessions_reserve = 1;
};

struct StateDecision {
  WorkerState state = WorkerState::kGpuUnavailable;
  std::string reason;
};

// WithoutAcknowledgedXid is `signals` without its Xid line when that line is the one the
// operator's enable acknowledged: the error is known and the GPU works again. Any other Xid
// line, a new one included, still takes the worker OFFLINE.
StateSignals WithoutAcknowledgedXid(StateSignals signals,
                                    const std::optional<std::string>& acknowledged);

// NextState gives the state the worker is in now. The first matching rule wins, in this
// order: OFFLINE (an Xid, or OFFLINE before and no enable), GPU_UNAVAILABLE (platform, probe,
// driver, VRAM, self-test, a job without evidence), DRAINING or DRAINED, THERMAL_THROTTLED,
// BUSY, AVAILABLE.
StateDecision NextState(WorkerState previous, const StateSignals& signals,
                        const StateLimits& limits);

}  // namespace mc::worker
