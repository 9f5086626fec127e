// The self-test's report: the ordered steps (gate, one-second encodes on the exact device, the
// full hardware pipeline under the sampler, the session-slot test, the decode matrix), each
// with its verdict, time and evidence, and what the steps measured for the rest of the
// worker. It is the status document's gpu.self_test block.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "worker/evidence/plausibility_gate.h"

namespace mc::worker {

// TestedGpu is which GPU and driver a report is of, so that a report is never taken for
// another card in the same slot (a swapped board) or the same card under a new driver.
struct TestedGpu {
  std::string pci_ids;  // "10de:2684"
  std::string driver;   // NVIDIA's driver version, or the VA driver's words

  bool operator==(const TestedGpu&) const = default;
};

struct SelfTestStep {
  // "gate", "encode", "pipeline", "session_slots", "decode_matrix".
  std::string name;
  bool ok = false;
  double seconds = 0;
  std::string evidence;
  // Why it failed, or what it skipped and why (an encoder missing from this ffmpeg).
  std::string detail;
};

struct SelfTestReport {
  // When it ran, RFC 3339 in UTC.
  std::string ts;
  TestedGpu gpu;
  bool ok = false;
  std::string evidence;
  std::string detail;
  std::vector<SelfTestStep> steps;
  // What the steps measured: the largest number of encode sessions that opened at once
  // (cap_source "probe"), the VRAM one 1080p pipeline took, and the box's libx264 baseline.
  std::optional<std::int64_t> sessions_cap;
  std::optional<double> pipeline_vram_mb;
  std::optional<CpuBaseline> cpu_baseline;
  // The capability keys whose encoder this ffmpeg lacks ("av1_enc"): the GPU may have it, but
  // the worker cannot use it with this ffmpeg.
  std::vector<std::string> downgraded;
  // How long ago it ran, in seconds, when read back from the state file; absent in a fresh run.
  std::optional<double> age_seconds;
};

}  // namespace mc::worker
