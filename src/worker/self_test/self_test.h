// The self-test proves this worker's one GPU with the real ffmpeg. It shows the GPU:
//  - encodes;
//  - runs the full hardware pipeline;
//  - opens the sessions its cap says;
//  - decodes each codec family it claims.
// Its steps run in order, each under its own deadline. A step that fails or runs late fails
// the test (the worker is GPU_UNAVAILABLE). Later steps that do not depend on it still run.
// So the report says all that is known.
#pragma once

#include <atomic>
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
  // How often the evidence sampler reads while a step's ffmpeg runs. It is faster than a
  // job's 1 Hz, since the self-test's runs last a second or two.
  std::chrono::milliseconds sample_interval{200};
  // When set, the test appends each ffmpeg command line to this file. A line holds:
  //  - the step's name ("session_slots" lines ran at once);
  //  - a tab;
  //  - the arguments, separated by the unit separator (0x1f).
  // The benchmark replays them bare.
  std::string command_log;
  // When set and true, the test stops: the ffmpeg that runs is killed, and the steps left are
  // recorded as not run. `worker run` sets it on SIGTERM, so a stop never waits for the test.
  const std::atomic<bool>* stop = nullptr;
};

// RunSelfTest runs the five steps on the GPU that the contract speaks for.
SelfTestReport RunSelfTest(const probe::ProbeResult& probe, const ProbeContract& contract,
                           const SelfTestOptions& options);

// RunCanary is the worker's known-good check of its GPU after a job failed. It runs:
//  - the self-test's gate;
//  - its H.264 encode of its own synthetic stream on the device;
//  - the pipeline that decodes, scales and encodes that stream on the device.
// Each step carries the GPU's evidence. It takes a few seconds. The report has those three
// steps, and no baseline or session count.
SelfTestReport RunCanary(const probe::ProbeResult& probe, const ProbeContract& contract,
                         const SelfTestOptions& options);

}  // namespace mc::worker
