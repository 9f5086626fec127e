// The worker's states as a pure transition, table-tested: each row is a set of signals and the
// state it must give, with a word its reason must hold.
#include "worker/status/worker_state.h"

#include <gtest/gtest.h>

namespace mc::worker {
namespace {

StateSignals Healthy() {
  StateSignals s;
  s.probe_ok = true;
  s.driver_branch = 570;
  s.vram_free_mb = 20000;
  s.self_test_ok = true;
  s.concurrency = 3;
  s.sessions_active = 0;
  s.sessions_cap = 8;
  return s;
}

struct StateRow {
  const char* what;
  WorkerState previous;
  StateSignals signals;
  WorkerState state;
  const char* reason_holds;
};

std::vector<StateRow> StateRows() {
  using enum WorkerState;
  std::vector<StateRow> rows;
  rows.push_back({"a healthy GPU with room is available", kGpuUnavailable, Healthy(), kAvailable,
                  "room for 3 more"});
  {
    StateSignals s = Healthy();
    s.xid_line = "[ 1234.5] NVRM: Xid (PCI:0000:01:00): 79, pid=123, GPU has fallen off the bus.";
    rows.push_back(
        {"an Xid in the kernel log is offline", kAvailable, s, kOffline, "fallen off the bus"});
  }
  rows.push_back({"offline stays offline until enabled", kOffline, Healthy(), kOffline,
                  "until an operator enables"});
  {
    StateSignals s = Healthy();
    s.enable_requested = true;
    rows.push_back({"an enable leaves offline", kOffline, s, kAvailable, "room"});
  }
  {
    StateSignals s = Healthy();
    s.platform_refused = true;
    s.platform_evidence = "/dev/dxg exists";
    rows.push_back({"WSL2 not allowed is unavailable", kAvailable, s, kGpuUnavailable,
                    "PT_WORKER_ALLOW_WSL2=1"});
  }
  {
    StateSignals s = Healthy();
    s.probe_ok = false;
    s.probe_reason = "cannot load libnvidia-encode.so.1";
    rows.push_back({"a driver missing is unavailable", kAvailable, s, kGpuUnavailable,
                    "libnvidia-encode.so.1"});
  }
  {
    StateSignals s = Healthy();
    s.driver_branch = 535;
    rows.push_back({"an old driver is unavailable", kAvailable, s, kGpuUnavailable,
                    "PT_WORKER_DRIVER_MIN=550"});
  }
  {
    StateSignals s = Healthy();
    s.vram_free_mb = 300;
    rows.push_back({"VRAM under the floor is unavailable", kAvailable, s, kGpuUnavailable,
                    "under the floor of 1024"});
  }
  {
    StateSignals s = Healthy();
    s.self_test_ok.reset();
    rows.push_back(
        {"no self-test is unavailable", kAvailable, s, kGpuUnavailable, "self-test has not run"});
  }
  {
    StateSignals s = Healthy();
    s.self_test_ok = false;
    s.self_test_detail = "encode: OpenEncodeSessionEx failed: unsupported device (2)";
    rows.push_back({"a failed self-test is unavailable", kAvailable, s, kGpuUnavailable,
                    "unsupported device (2)"});
  }
  {
    StateSignals s = Healthy();
    s.canary_ok = false;
    s.canary_detail = "step encode: EncodePicture failed";
    rows.push_back({"a failed canary is unavailable", kAvailable, s, kGpuUnavailable,
                    "canary (the self-test's encode and decode of its own stream on this GPU) "
                    "failed after a job failed: step encode: EncodePicture failed"});
  }
  {
    StateSignals s = Healthy();
    s.canary_ok = true;
    rows.push_back({"a passed canary is available", kAvailable, s, kAvailable, ""});
  }
  {
    StateSignals s = Healthy();
    s.drain_requested = true;
    s.active_jobs = 2;
    rows.push_back({"a drain with jobs is draining", kAvailable, s, kDraining, "2 jobs to finish"});
  }
  {
    StateSignals s = Healthy();
    s.drain_requested = true;
    rows.push_back({"a drain with no job is drained", kDraining, s, kDrained, "no job"});
  }
  {
    StateSignals s = Healthy();
    s.thermal_throttle_reasons = {"hw_thermal_slowdown"};
    rows.push_back({"a thermal slowdown is throttled", kAvailable, s, kThermalThrottled,
                    "hw_thermal_slowdown"});
  }
  {
    StateSignals s = Healthy();
    s.sessions_active = 7;
    rows.push_back(
        {"sessions at the cap less the reserve are busy", kAvailable, s, kBusy, "7 of 8"});
  }
  {
    StateSignals s = Healthy();
    s.active_jobs = 3;
    rows.push_back({"jobs at the concurrency are busy", kAvailable, s, kBusy, "concurrency of 3"});
  }
  {
    StateSignals s = Healthy();
    s.concurrency = 0;
    rows.push_back({"no room at all is busy", kAvailable, s, kBusy, "concurrency_limiters"});
  }
  {
    StateSignals s = Healthy();
    s.xid_line = "NVRM: Xid (PCI:0000:01:00): 48";
    s.probe_ok = false;
    s.drain_requested = true;
    rows.push_back({"offline wins over every other reason", kAvailable, s, kOffline, "Xid"});
  }
  return rows;
}

TEST(NextState, EachRowGivesItsStateAndAReasonInWords) {
  for (const StateRow& row : StateRows()) {
    SCOPED_TRACE(row.what);
    const StateDecision decision = NextState(row.previous, row.signals, {});
    EXPECT_EQ(StateName(decision.state), StateName(row.state));
    EXPECT_NE(decision.reason.find(row.reason_holds), std::string::npos) << decision.reason;
  }
}

TEST(NextState, AnEnableClearsTheXidItAcknowledgedButNotANewOne) {
  StateSignals s = Healthy();
  s.xid_line = "NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.";
  s.xid_sequence = 6001;
  // Without an enable the Xid keeps the worker OFFLINE, and so does an enable alone.
  EXPECT_EQ(NextState(WorkerState::kOffline, WithoutAcknowledgedXid(s, std::nullopt), {}).state,
            WorkerState::kOffline);
  s.enable_requested = true;
  EXPECT_EQ(NextState(WorkerState::kOffline, WithoutAcknowledgedXid(s, std::nullopt), {}).state,
            WorkerState::kOffline);
  // The enable acknowledged that record: the worker leaves OFFLINE.
  const std::optional<std::uint64_t> acknowledged = s.xid_sequence;
  EXPECT_EQ(NextState(WorkerState::kOffline, WithoutAcknowledgedXid(s, acknowledged), {}).state,
            WorkerState::kAvailable);
  // A new Xid of this GPU later takes it OFFLINE again, enabled or not.
  s.enable_requested = false;
  s.xid_line = "NVRM: Xid (PCI:0000:01:00): 48, DBE";
  s.xid_sequence = 7200;
  EXPECT_EQ(NextState(WorkerState::kAvailable, WithoutAcknowledgedXid(s, acknowledged), {}).state,
            WorkerState::kOffline);
}

TEST(NextState, EveryStateHasAName) {
  for (WorkerState state :
       {WorkerState::kAvailable, WorkerState::kBusy, WorkerState::kDraining, WorkerState::kDrained,
        WorkerState::kGpuUnavailable, WorkerState::kThermalThrottled, WorkerState::kOffline}) {
    EXPECT_FALSE(StateName(state).empty());
  }
}

}  // namespace
}  // namespace mc::worker
