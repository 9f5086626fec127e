// RunJobFfmpeg runs one job's ffmpeg for the wrapper: the ffmpeg is the wrapper's child, its
// stderr passes through the wrapper to the runner (which reads its progress there) and is
// read on the way for the GPU's own failure lines (ffmpeg_log.h; the program is to tag its
// lines, as WithLevelTags asks ffmpeg to), the evidence sampler watches it for its
// whole life, and every signal the runner sends the wrapper reaches it. It never outlives the
// runner: when the runner dies the wrapper kills it at once, and when the wrapper itself is
// killed the kernel kills it (PR_SET_PDEATHSIG).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "worker/daemon/ffmpeg_sandbox.h"
#include "worker/evidence/evidence.h"
#include "worker/evidence/evidence_sampler.h"

namespace mc::worker {

struct JobFfmpegOptions {
  // The program and its arguments.
  std::vector<std::string> argv;
  SamplerOptions sampler;
  // The runner's pid: when the wrapper's parent is no longer this one, the runner has died.
  int parent_pid = 0;
  // The box ffmpeg enters before it starts; none runs it unboxed.
  const Sandbox* sandbox = nullptr;
};

struct JobFfmpegRun {
  // ffmpeg's exit status, or 128 + the signal that ended it; 127 when it could not start.
  int exit_code = 127;
  EvidenceRecord record;
  // The first error line of ffmpeg's that names a failure of the GPU or its driver, when the
  // run failed.
  std::optional<std::string> gpu_failure;
  // The media time ffmpeg's last progress line reports; absent when it printed none.
  std::optional<double> processed_seconds;
  // Whether the runner died while ffmpeg ran (ffmpeg was then killed).
  bool runner_died = false;
  double wall_seconds = 0;
};

JobFfmpegRun RunJobFfmpeg(const JobFfmpegOptions& options);

}  // namespace mc::worker
