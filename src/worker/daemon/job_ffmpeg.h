// RunJobFfmpeg runs one job's ffmpeg for the wrapper:
// - the ffmpeg is the wrapper's child;
// - its stderr passes through the wrapper to the runner, which reads its progress there;
// - the wrapper reads that stderr on the way for the GPU's failure lines (ffmpeg_log.h);
// - the evidence sampler watches it for its whole life;
// - every signal the runner sends the wrapper reaches it.
// The program must tag its lines, as WithLevelTags asks ffmpeg to. It never outlives the runner.
// When the runner dies, the wrapper kills it at once. When the wrapper itself is killed, the kernel
// kills it (PR_SET_PDEATHSIG). A job's wall time is bounded by its media (JobDeadline). Past its
// deadline, ffmpeg is killed and the job fails.
#pragma once

#include <chrono>
#include <cstdint>
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
  // The runner's pid. When the wrapper's parent is no longer this one, the runner has died.
  int parent_pid = 0;
  // The sandbox ffmpeg enters before it starts. None runs it unboxed.
  const Sandbox* sandbox = nullptr;
  // The plan's own hardware components. Only their error lines can name a GPU failure.
  std::vector<std::string> hardware_components;
  // How long ffmpeg may run before it is killed. None: as long as it runs.
  std::optional<std::chrono::seconds> deadline;
};

struct JobFfmpegRun {
  // ffmpeg's exit status, or 128 + the signal that ended it. 127 when it could not start.
  int exit_code = 127;
  EvidenceRecord record;
  // When the run failed: ffmpeg's first error line that names a failure of the GPU or its driver.
  std::optional<std::string> gpu_failure;
  // The media time and frame count of ffmpeg's last progress line. Absent when it printed none.
  std::optional<double> processed_seconds;
  std::optional<std::int64_t> processed_frames;
  // Whether ffmpeg ran past its deadline and was killed.
  bool deadline_passed = false;
  // Whether the runner died while ffmpeg ran (ffmpeg was then killed).
  bool runner_died = false;
  double wall_seconds = 0;
};

JobFfmpegRun RunJobFfmpeg(const JobFfmpegOptions& options);

// JobDeadline is a job's wall-time bound for `media_seconds` of media (ffprobe's duration). It is a
// floor plus ten times realtime. The floor is five minutes, for ffmpeg's start and a short clip on
// a busy GPU. Ten times realtime is far slower than any GPU encodes. Unknown media (0) gets the
// floor alone.
std::chrono::seconds JobDeadline(double media_seconds);

// StatedTimingProblem says when an input's stated duration and frame count disagree absurdly. Its
// words name the numbers. The case is a video stream of `frames` frames (ffprobe's nb_frames) over
// `duration_seconds`:
// - more than an hour long;
// - with fewer than one frame per ten minutes.
// The runner's -r makes ffmpeg repeat such frames for days. A few KB with a timestamp gap does it.
// Empty when the input holds together or states too little to judge.
std::string StatedTimingProblem(std::int64_t frames, double duration_seconds, double output_fps);

}  // namespace mc::worker
