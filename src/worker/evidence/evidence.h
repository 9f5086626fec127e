// The evidence that a job's work ran on the GPU's media engine. The sampler gathers it over the
// job's run. This file also holds the pure judgement of it. Encode and decode are judged apart.
// When `-hwaccel` fails, ffmpeg silently falls back to decoding on the CPU, and still exits 0. A
// job that expects both must show both.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "worker/evidence/drm_fdinfo.h"

namespace mc::worker {

// NvmlEvidence is what NVML showed of the job's own PIDs.
struct NvmlEvidence {
  // Samples of nvmlDeviceGetProcessUtilization that named a PID of the tree.
  std::int64_t samples_of_tree = 0;
  std::uint32_t max_enc_util = 0;
  std::uint32_t max_dec_util = 0;
  // The most encoder sessions the tree's PIDs held at once, and the sessions' IDs.
  std::int64_t max_sessions_of_tree = 0;
  std::set<std::uint32_t> session_ids;
};

// DrmEvidence is the media-engine time of the DRM files the job opened. A client's counters count
// from the file's opening. The job opened its own files. So the largest value seen of each client
// is the job's work.
struct DrmEvidence {
  std::int64_t clients = 0;
  MediaEngineTime time;
  std::set<std::string> drivers;
};

struct EvidenceRecord {
  std::int64_t samples = 0;
  double wall_seconds = 0;
  // The tree's CPU time at the last sample: its own and its reaped children's.
  double cpu_seconds = 0;
  std::optional<NvmlEvidence> nvml;
  std::optional<DrmEvidence> drm;
  // Sources that could not be read, in words: "cannot load libnvidia-ml.so.1", ...
  std::vector<std::string> problems;
};

// What the job claims to do on the GPU. The argv check reads it from the command line.
struct Expectation {
  bool encode = false;
  bool decode = false;
};

struct EvidenceVerdict {
  bool ok = false;
  bool encode_proven = false;
  bool decode_proven = false;
  // The sources that proved it, such as "nvml_encoder_sessions+nvml_process_util", or "none".
  std::string method;
  // What was seen, in words. For ok=false, why it is no evidence.
  std::string evidence;
};

// JudgeEvidence says whether the record proves what the job expects. A job that expects nothing of
// the GPU proves nothing. It is not a hardware job.
EvidenceVerdict JudgeEvidence(const EvidenceRecord& record, const Expectation& expectation);

}  // namespace mc::worker
