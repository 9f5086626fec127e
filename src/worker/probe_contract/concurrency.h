// How many transcoding jobs this worker can carry at once. It is a pure function of what the box
// has free and what one job costs. It gives the bound every limiter sets, and the name of the one
// that set the answer. The pool reads the limiters (`concurrency_limiters` of the status document).
// They show why a worker carries what it carries. docs/worker/status.md gives the per-job costs and
// where they come from.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

// JobCosts is what one job takes of each resource. The defaults are a 1080p VOD job on the GPU. The
// self-test's measurements replace the VRAM figure.
struct JobCosts {
  // Demuxing, audio, muxing and the runner's own work. The video itself is on the GPU.
  double cpu_cores = 0.5;
  double ram_mb = 512;
  // The source and every rendition of a ten-minute 1080p video, with room to spare.
  double disk_gb = 4;
  // Download of the source and upload of the renditions, averaged over the job.
  double bandwidth_mbps = 20;
  // PeerTube runs one ffmpeg per rendition. A job's renditions run one after another.
  double sessions = 1;
  // Decode surfaces, scaling and encode look-ahead of one 1080p hardware pipeline.
  double vram_mb = 400;
};

// ConcurrencyInputs is what the box has for this worker's jobs. Each resource is what the worker's
// own jobs may use. That is free capacity plus what its running jobs already hold.
struct ConcurrencyInputs {
  // Whether the probe contract said the GPU may work at all.
  bool probe_ok = false;
  double cpu_cores = 0;
  // The load of everything but the worker's jobs, in cores.
  double cpu_load_others = 0;
  double ram_mb = 0;
  double disk_gb = 0;
  // The recent download rate. Absent until a job has measured one, and then no bound.
  std::optional<double> bandwidth_mbps;
  // Encode sessions left to the worker: the cap, less the reserve, less other users' sessions.
  // Absent where no cap is known (VA-API, uncapped NVIDIA boards).
  std::optional<double> sessions_free;
  // VRAM above the floor that the worker's jobs may take. Absent where unknown (VA-API).
  std::optional<double> vram_free_mb;
  JobCosts costs;
  // The largest concurrency configured (PT_WORKER_CONCURRENCY_MAX). Absent for none.
  std::optional<std::int64_t> configured_max;
};

// Limiter is one resource's bound. Absent where the resource sets none.
struct Limiter {
  std::string name;
  std::optional<std::int64_t> bound;

  bool operator==(const Limiter&) const = default;
};

// Every limiter's name. ResolveConcurrency reports them, and breaks ties, in this order.
inline constexpr std::array<std::string_view, 8> kLimiterNames{
    {"gpu", "gpu_sessions", "vram", "cpu", "ram", "disk", "bw", "config"}};

struct Concurrency {
  std::int64_t value = 0;
  // Every limiter, in a fixed order: gpu, gpu_sessions, vram, cpu, ram, disk, bw, config.
  std::vector<Limiter> limiters;
  // The limiter that set the value: the first in that order with the smallest bound.
  std::string bound_by;
};

Concurrency ResolveConcurrency(const ConcurrencyInputs& inputs);

// The most jobs at once that a person or the pool may ask of a worker.
inline constexpr std::int64_t kMaxConcurrencyHint = 100000;

// ParseConcurrencyHint reads the concurrency asked of a running worker. `worker concurrency` asks
// it, and so does the body of a POST /concurrency. The text is one of:
// - "auto", which gives nullopt, for what the resources allow;
// - decimal digits alone: a number of jobs from 0 to kMaxConcurrencyHint.
// Anything else is invalid input.
Result<std::optional<std::int64_t>> ParseConcurrencyHint(std::string_view text);

}  // namespace mc::worker
