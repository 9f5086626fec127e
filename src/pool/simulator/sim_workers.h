// The simulated workers: each one's speed, start-up, probe and failure behaviour, read from
// a YAML file (docs/pool/simulator.md, "Workers file").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/pool_state.h"
#include "pool/policy/signals.h"

namespace mc::pool {

enum class FailureKind {
  kGpuUnavailable,  // jobs on it error, and it takes none
  kThermal,         // it finishes its jobs and takes no more
  kNoEvidence,      // its jobs finish without hardware evidence, which fails them
  kUnreadable,      // it keeps working, but its status cannot be read
};

struct WorkerFailure {
  FailureKind kind = FailureKind::kGpuUnavailable;
  double at_s = 0;
  double for_s = 0;  // 0: for good

  bool ActiveAt(double t) const { return t >= at_s && (for_s <= 0 || t < at_s + for_s); }
};

struct SimWorkerSpec {
  std::string name;
  std::string vendor = "nvidia";
  int concurrency = 2;
  double speed = 4;       // realtime factor at 1080p30
  double startup_s = 20;  // a service or pod started from nothing: to taking jobs
  // "enable" of a worker whose service is up (SPARE, WARM): to taking jobs; empty: `startup_s`.
  std::optional<double> enable_s;

  double EnableSeconds() const { return enable_s.value_or(startup_s); }
  double boot_s = 240;  // from a wake to a readable status
  double probe_every_s = 300;
  Capabilities capabilities;
  double vram_free_mb = 20000;
  double download_mbps = 200;
  int sessions_cap = 0;
  bool cold = false;  // starts powered off
  bool wakeable = false;
  bool on_battery = false;
  std::optional<WorkerFailure> failure;
  std::vector<WorkerFailure> later_failures;  // a replay's further intervals, of any kind
  // A replay's: admitting jobs when the simulation starts (under start_as_service), and the
  // age of its last probe then (-1: probes spread over the interval).
  bool starts_available = false;
  double probe_age_at_start = -1;
  // Where the pool's own policy finds it at the start.
  // ACTIVE means admitting jobs, under every policy.
  // And its learned weight then, as if from many jobs; empty: the class prior.
  std::optional<ManagerState> start_state;
  std::optional<double> weight;
};

Result<std::vector<SimWorkerSpec>> ParseWorkers(const std::string& text,
                                                const std::string& file = "workers.yaml");

// FleetOf is `count` copies of `spec`, named NAME-1 ... NAME-count.
std::vector<SimWorkerSpec> FleetOf(const SimWorkerSpec& spec, int count);

}  // namespace mc::pool
