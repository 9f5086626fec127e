// The self-test: proof, with the real ffmpeg on this machine, that the one GPU of this worker
// encodes, runs the full hardware pipeline, opens the sessions its cap says, and decodes each
// codec family it claims. Its steps run in order, each under its own deadline; a step that
// fails or runs past its deadline fails the test (the worker is GPU_UNAVAILABLE), and the
// later steps that do not depend on it still run, so the report says all that is known.
#pragma once

#include <chrono>
#include <string>

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/probe_contract/worker_config.h"
#include "worker/self_test/self_test_report.h"

namespace mc::worker {

struct SelfTestOptions {
  // The driver minimum, the VRAM floor, the step deadline, the ffmpeg and the session cap.
  WorkerConfig config;
  // Ready-made test streams (h264.mp4, hevc.mp4, av1.mp4, vp9.webm), for an ffmpeg that has
  // no software encoder to make them; empty to make them with this ffmpeg.
  std::string streams_dir;
  // Where the streams, the encodes' outputs and ffmpeg's logs go; it must exist.
  std::string scratch_dir;
  std::string dev_root = "/dev";
  std::string proc_root = "/proc";
  std::string nvml_library = "libnvidia-ml.so.1";
  // How often the evidence sampler reads while a step's ffmpeg runs; faster than a job's
  // 1 Hz, because the self-test's runs last a second or two.
  std::chrono::milliseconds sample_interval{200};
  // When set, every ffmpeg command line the test runs is appended to this file, one a line:
  // the step's name ("session_slots" lines ran at once), a tab, and the arguments separated
  // by the unit separator (0x1f). The benchmark replays them bare.
  std::string command_log;
};

// RunSelfTest runs the five steps on the GPU that the contract speaks for.
SelfTestReport RunSelfTest(const probe::ProbeResult& probe, const ProbeContract& contract,
                           const SelfTestOptions& options);

}  // namespace mc::worker
