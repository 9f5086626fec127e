// The worker's local socket speaks one JSON object per line. Two kinds of client use it:
// - each job's ffmpeg wrapper: what to run on, a session slot, what the run showed;
// - the operator's `worker drain|enable|concurrency|eligibility|state`.
// This file is the protocol as values and their JSON forms: LocalRequest and LocalAnswer. The
// socket itself is local_socket.h (the client) and local_server.h (the server). The worker's
// answers are WorkerDaemon::Handle's (worker_daemon.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

// What the wrapper needs to plan and run a job's ffmpeg on this worker's GPU.
struct WrapperContext {
  // The device exactly as `probe --output json` prints it.
  nlohmann::json device;
  std::string render_node;
  int cuda_ordinal = 0;
  std::string ffmpeg;
  std::string ffprobe;
  std::string nvenc_preset;
  std::string probe_module;
  // The sampler's sources.
  std::string nvml_library;
  std::string proc_root;
  // The self-test's libx264 baseline. Absent when the self-test measured none.
  std::optional<double> baseline_cpu_seconds_per_media_second;
  std::optional<double> baseline_pixels_per_frame;
  // The plausibility check's largest share of the baseline (PT_WORKER_PLAUSIBLE_CPU_PCT).
  double plausible_cpu_fraction = 0.25;
};

// The widest and tallest picture a run's report states. The worker refuses a report past it.
constexpr std::int64_t kMaxReportedPictureSide = 1 << 20;

// The wrapper's report of one ffmpeg run, for the job book and the worker's state.
struct WrapperRunReport {
  std::string job_form;
  std::int64_t output_height = 0;
  double output_fps = 0;
  std::int64_t encode_sessions = 0;
  std::string encoder;
  // ffmpeg's exit status, or 128 + the signal that ended it.
  int exit_code = 0;
  bool evidence_ok = false;
  std::string evidence;
  // The stderr line of ffmpeg's where the GPU or its driver failed. Empty when none did.
  std::string gpu_failure;
  // Whether the runner died while ffmpeg ran, and ffmpeg was killed for it.
  bool runner_died = false;
  double media_seconds = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
  // The picture it wrote, each side at most kMaxReportedPictureSide.
  std::int64_t width = 0;
  std::int64_t height = 0;
  // The input's picture and codec (ffprobe's codec_name), as the wrapper probed them. 0 and empty
  // where it could not.
  std::int64_t source_width = 0;
  std::int64_t source_height = 0;
  std::string source_codec;
  // What the plan said of itself (a CPU decode, for one).
  std::vector<std::string> notes;
};

struct ContextRequest {};
struct AcquireRequest {
  std::int64_t sessions = 1;
  std::int64_t pid = 0;
  std::string job_form;
  std::int64_t output_height = 0;
};
struct FinishedRequest {
  WrapperRunReport report;
};
// The wrapper refused a command itself (the device cannot do what it asks).
struct RefusedRequest {
  std::string reason;
};
struct DrainRequest {};
struct EnableRequest {};
struct ConcurrencyRequest {
  // Absent to go back to what the resources allow.
  std::optional<std::int64_t> value;
};
struct EligibilityRequest {
  std::string text;
};
struct StateRequest {};

using LocalRequest =
    std::variant<ContextRequest, AcquireRequest, FinishedRequest, RefusedRequest, DrainRequest,
                 EnableRequest, ConcurrencyRequest, EligibilityRequest, StateRequest>;

// ParseLocalRequest reads one line. An error names what is wrong and where.
Result<LocalRequest> ParseLocalRequest(std::string_view line);
std::string LocalRequestLine(const LocalRequest& request);

// Every answer is {"ok": bool, "message": "...", ...}. A refusal or an error is ok=false, with its
// reason in words. A context answer carries "context".
struct LocalAnswer {
  bool ok = false;
  std::string message;
  std::string state;
  std::optional<WrapperContext> context;
};

Result<LocalAnswer> ParseLocalAnswer(std::string_view line);
std::string LocalAnswerLine(const LocalAnswer& answer);

}  // namespace mc::worker
