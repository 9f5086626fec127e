#include "worker/status/worker_state.h"

namespace mc::worker {

std::string_view StateName(WorkerState state) {
  switch (state) {
    case WorkerState::kAvailable:
      return "AVAILABLE";
    case WorkerState::kBusy:
      return "BUSY";
    case WorkerState::kDraining:
      return "DRAINING";
    case WorkerState::kDrained:
      return "DRAINED";
    case WorkerState::kGpuUnavailable:
      return "GPU_UNAVAILABLE";
    case WorkerState::kThermalThrottled:
      return "THERMAL_THROTTLED";
    case WorkerState::kOffline:
      return "OFFLINE";
  }
  return "GPU_UNAVAILABLE";
}

std::optional<WorkerState> StateNamed(std::string_view name) {
  for (WorkerState state :
       {WorkerState::kAvailable, WorkerState::kBusy, WorkerState::kDraining, WorkerState::kDrained,
        WorkerState::kGpuUnavailable, WorkerState::kThermalThrottled, WorkerState::kOffline}) {
    if (StateName(state) == name) return state;
  }
  return std::nullopt;
}

std::string_view NextStep(WorkerState state) {
  switch (state) {
    case WorkerState::kAvailable:
      return "";
    case WorkerState::kBusy:
      return "nothing, unless it stays so with no job: the reason names the bound (sessions, VRAM, "
             "CPU, the concurrency); `worker concurrency` or PT_WORKER_CONCURRENCY_MAX sets the "
             "most";
    case WorkerState::kDraining:
      return "wait for its jobs to end (--drain-timeout bounds it), or `worker enable` to take "
             "jobs again";
    case WorkerState::kDrained:
      return "`worker enable --gpu N` when it should take jobs again (the pool manager enables it "
             "when it needs it)";
    case WorkerState::kGpuUnavailable:
      return "the reason names the failed check (a self-test step, the VRAM floor, a library, the "
             "driver): fix that; the worker probes again by itself, a failed canary needs `worker "
             "enable --gpu N`, and a unit stopped at its self-test (exit 3) `systemctl restart "
             "media-worker@N`; `worker self-test --gpu N` shows each step "
             "(docs/troubleshooting.md)";
    case WorkerState::kThermalThrottled:
      return "it takes jobs again once the GPU cools; if it lasts, check the box's cooling and "
             "power limit (nvidia-smi -q -d PERFORMANCE)";
    case WorkerState::kOffline:
      return "the driver reported an Xid error: read it (journalctl -k | grep Xid), reset the GPU "
             "or reboot as its number asks, then `worker enable --gpu N`";
  }
  return "";
}

StateSignals WithoutAcknowledgedXid(StateSignals signals,
                                    std::optional<std::uint64_t> acknowledged) {
  if (signals.xid_sequence && acknowledged && *signals.xid_sequence <= *acknowledged) {
    signals.xid_line.reset();
    signals.xid_sequence.reset();
  }
  return signals;
}

StateDecision NextState(WorkerState previous, const StateSignals& s, const StateLimits& limits) {
  using enum WorkerState;
  if (s.xid_line) return {kOffline, "the kernel log holds an NVIDIA Xid error: " + *s.xid_line};
  if (previous == kOffline && !s.enable_requested) {
    return {kOffline,
            "the GPU went offline after a driver error and stays so until an operator enables it"};
  }
  if (s.platform_refused) {
    return {kGpuUnavailable, "this is WSL2 (" + s.platform_evidence +
                                 "), a development platform whose GPU is shared with Windows; "
                                 "PT_WORKER_ALLOW_WSL2=1 lets it work"};
  }
  if (!s.probe_ok) return {kGpuUnavailable, "the probe refused the GPU: " + s.probe_reason};
  if (s.driver_branch && *s.driver_branch < limits.driver_min) {
    return {kGpuUnavailable,
            "the NVIDIA driver branch " + std::to_string(*s.driver_branch) +
                " is older than PT_WORKER_DRIVER_MIN=" + std::to_string(limits.driver_min)};
  }
  if (s.vram_free_mb && *s.vram_free_mb < limits.vram_floor_mb) {
    return {kGpuUnavailable,
            std::to_string(*s.vram_free_mb) + " MB of VRAM free is under the floor of " +
                std::to_string(limits.vram_floor_mb) + " MB (PT_WORKER_VRAM_FLOOR_MB)"};
  }
  if (!s.self_test_ok)
    return {kGpuUnavailable, "the self-test has not run on this GPU, so nothing proves it encodes"};
  if (!*s.self_test_ok) return {kGpuUnavailable, "the self-test failed: " + s.self_test_detail};
  if (s.canary_ok && !*s.canary_ok) {
    return {kGpuUnavailable,
            "the canary (the self-test's encode and decode of its own stream on this GPU) "
            "failed after a job failed: " +
                s.canary_detail};
  }
  if (s.drain_requested) {
    if (s.active_jobs > 0 && s.drain_timed_out)
      return {kDrained, "the drain timed out with " + std::to_string(s.active_jobs) +
                            " jobs still running; they are left to finish"};
    if (s.active_jobs > 0)
      return {kDraining, "draining as asked; " + std::to_string(s.active_jobs) + " jobs to finish"};
    return {kDrained, "drained as asked; no job is running"};
  }
  if (!s.thermal_throttle_reasons.empty()) {
    std::string reasons;
    for (const std::string& reason : s.thermal_throttle_reasons)
      reasons += (reasons.empty() ? "" : ", ") + reason;
    return {kThermalThrottled,
            "the GPU is slowing itself: " + reasons + "; no new jobs until it stops"};
  }
  if (s.sessions_cap && s.sessions_active &&
      *s.sessions_active >= *s.sessions_cap - limits.sessions_reserve) {
    return {kBusy, std::to_string(*s.sessions_active) + " of " + std::to_string(*s.sessions_cap) +
                       " encode sessions are in use, and " +
                       std::to_string(limits.sessions_reserve) +
                       " are kept in reserve (PT_WORKER_SESSIONS_RESERVE)"};
  }
  if (s.concurrency <= 0)
    return {kBusy, "the resources leave room for no job (see concurrency_limiters)"};
  if (s.active_jobs >= s.concurrency) {
    return {kBusy, std::to_string(s.active_jobs) + " jobs run, the concurrency of " +
                       std::to_string(s.concurrency)};
  }
  return {kAvailable, "the GPU passed its probe and self-test and has room for " +
                          std::to_string(s.concurrency - s.active_jobs) + " more jobs"};
}

}  // namespace mc::worker
