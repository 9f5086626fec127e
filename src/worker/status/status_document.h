// The worker's status document, version 2: the one interface the pool reads. It holds:
// - the vendor-generic `gpu` block;
// - the concurrency and every limiter;
// - the state and its reason;
// - the job counters and the platform.
// It and the Prometheus text are pure functions of StatusInputs. So /status, /metrics and `worker
// status` say the same thing. docs/reference/worker-status.schema.json is its schema. Changes are
// additive only.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "worker/probe_contract/concurrency.h"
#include "worker/probe_contract/landlock.h"
#include "worker/probe_contract/platform.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/self_test/self_test_report.h"
#include "worker/status/worker_state.h"

namespace mc::worker {

inline constexpr int kStatusSchemaVersion = 2;

// DeviceTelemetry is one GPU's counters. A value the driver would not give is absent.
struct DeviceTelemetry {
  std::int64_t index = 0;
  std::optional<std::string> uuid;
  std::optional<std::int64_t> vram_total_mb;
  std::optional<std::int64_t> vram_free_mb;
  std::optional<std::int64_t> enc_util_pct;
  std::optional<std::int64_t> dec_util_pct;
  std::optional<std::int64_t> temp_c;
  std::vector<std::string> throttle_reasons;
};

struct Sessions {
  std::int64_t active = 0;
  std::optional<std::int64_t> cap;
  // "probe" (the self-test's count), "nvml", "driver_class_table" or "none".
  std::string cap_source = "none";
};

struct JobCounters {
  std::int64_t completed = 0;
  std::int64_t failed = 0;
  // Jobs refused or failed because they would have run, or ran, on the CPU.
  std::int64_t hw_fallback_prevented = 0;
  std::int64_t aborted = 0;
};

struct LastJobEvidence {
  bool ok = false;
  std::string method;
  std::string ts;
};

// CanaryRun is one canary's outcome. A canary is the self-test's encode and decode of its own
// stream. It runs on the GPU after a job failed or fell short of evidence.
struct CanaryRun {
  bool ok = false;
  // When it started: RFC 3339 in UTC, and seconds since the epoch for the metrics.
  std::string ts;
  double unix_seconds = 0;
  double seconds = 0;
  // The job failure that asked for it. Why it failed, where it did. Its steps' evidence.
  std::string cause;
  std::string reason;
  std::string evidence;
};

// Canaries is what the worker knows of its canaries:
// - whether one waits or runs now (the gate admits no job meanwhile);
// - how many passed and failed;
// - the last one.
struct Canaries {
  bool pending = false;
  bool running = false;
  std::int64_t passed = 0;
  std::int64_t failed = 0;
  std::optional<CanaryRun> last;
};

// The transfer rates (EWMAs) of the runner's downloads and uploads through the gate.
struct TransferRates {
  std::optional<double> recent_download_mbps;
  std::optional<double> recent_upload_mbps;
  bool network_degraded = false;
};

// The PeerTube server and official runner the worker works beside. Also what is known of the pair
// (peertube_versions.h). Empty strings where a version could not be read.
struct PeerTubeVersions {
  std::string server;
  std::string runner;
  std::string support;  // tested, by-contract, unknown, breaks
  std::string advice;
};

struct HostResources {
  std::string cpu_model;
  double cpu_cores = 0;
  double load_1m = 0;
  std::optional<std::int64_t> ram_available_mb;
  std::optional<double> disk_free_gb;
};

struct StatusInputs {
  std::string generated_at;
  std::string hostname;
  std::string runner_name;
  // Whether the worker's runner is registered with a PeerTube server.
  bool registered = false;
  // Known to a running worker (`worker run`). It reads both versions at its start.
  std::optional<PeerTubeVersions> peertube;
  ProbeContract probe;
  // The NVIDIA architecture ("Ada"). Empty where unknown.
  std::string generation;
  // "open" or "proprietary" for NVIDIA. Otherwise the kernel driver (i915, xe, amdgpu).
  std::string kernel_module;
  Sessions sessions;
  std::vector<DeviceTelemetry> devices;
  std::optional<SelfTestReport> self_test;
  Concurrency concurrency;
  StateDecision state;
  // What the state was decided from. A running worker can then decide again at once, without
  // gathering, when one of its own facts changes. Examples: a job starts, an operator drains.
  StateSignals signals;
  std::int64_t active_jobs = 0;
  JobCounters jobs;
  std::optional<LastJobEvidence> last_job;
  Canaries canary;
  // The last finished job's record and the recent ones, newest last. The job book writes them
  // (job_book.h). Null and empty until a job has run.
  nlohmann::json last_job_record = nullptr;
  std::vector<nlohmann::json> recent_jobs;
  TransferRates transfer;
  Platform platform;
  bool wsl2_allowed = false;
  // Whether each job's ffmpeg runs in its sandbox on this kernel. Whether the settings require it.
  FfmpegSandbox sandbox;
  HostResources host;
  // What could not be read while gathering, in words.
  std::vector<std::string> problems;
};

nlohmann::ordered_json StatusDocument(const StatusInputs& inputs);

// StatusTable is the document for people.
std::string StatusTable(const StatusInputs& inputs);

// PrometheusText is the Prometheus text exposition of the same facts:
//    pt_worker_up, pt_worker_gpu_sessions{vendor,cap_source}, pt_worker_hw_evidence_ok,
//    pt_worker_ffmpeg_boxed and the rest.
std::string PrometheusText(const StatusInputs& inputs);

}  // namespace mc::worker
