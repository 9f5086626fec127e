// The worker's states, and the one pure function that moves between them. Every state carries its
// reason in words. So the pool and an operator see why, not only what.
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
// StateNamed is the state of a name StateName gives; none for another word.
std::optional<WorkerState> StateNamed(std::string_view name);

// NextStep says what an operator does in `state`, in one sentence; empty where nothing is to be
// done. docs/troubleshooting.md holds the same table.
std::string_view NextStep(WorkerState state);

// StateSignals is everything the transition reads, gathered by the caller.
struct StateSignals {
  bool probe_ok = false;
  std::string probe_reason;
  // WSL2 and not allowed there.
  bool platform_refused = false;
  std::string platform_evidence;
  // The NVIDIA driver's branch, such as 580. Absent for other vendors or when unknown.
  std::optional<std::int64_t> driver_branch;
  // NVIDIA's free VRAM. Absent where unknown.
  std::optional<std::int64_t> vram_free_mb;
  // The thermal and power throttle reasons in force (nvml_library.h names them).
  std::vector<std::string> thermal_throttle_reasons;
  // The driver's last Xid record that names this GPU and that no enable acknowledged. It holds its
  // message and its sequence number in the kernel log.
  std::optional<std::string> xid_line;
  std::optional<std::uint64_t> xid_sequence;
  // The self-test's verdict. Absent when it has not run.
  std::optional<bool> self_test_ok;
  std::string self_test_detail;
  // The verdict of the worker's last canary: its known-good check of the GPU after a job failed.
  // Absent before the first. A job's own failure never decides the state.
  std::optional<bool> canary_ok;
  std::string canary_detail;
  bool drain_requested = false;
  // The drain ran past its timeout with jobs still running. The state is DRAINED all the same, so
  // the pool stops waiting. The jobs run on.
  bool drain_timed_out = false;
  // The operator's `enable`, which leaves OFFLINE.
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

// WithoutAcknowledgedXid is `signals` without its Xid, once the operator's enable acknowledged
// it. The enable names a sequence number: this record's or a later one's. The error is then known
// and the GPU works again. A record after it still takes the worker OFFLINE.
StateSignals WithoutAcknowledgedXid(StateSignals signals,
                                    std::optional<std::uint64_t> acknowledged);

// NextState gives the state the worker is in now. The first matching rule wins, in this order:
// - OFFLINE: an Xid, or OFFLINE before and no enable;
// - GPU_UNAVAILABLE: platform, probe, driver, VRAM, self-test, a failed canary;
// - DRAINING or DRAINED;
// - THERMAL_THROTTLED;
// - BUSY;
// - AVAILABLE.
StateDecision NextState(WorkerState previous, const StateSignals& signals,
                        const StateLimits& limits);

}  // namespace mc::worker
