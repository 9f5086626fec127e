// The self-test's report. It holds the ordered steps, each with its verdict, time and
// evidence:
//  - the gate;
//  - one-second encodes on the exact device;
//  - the full hardware pipeline under the sampler;
//  - the session-slot test;
//  - the decode matrix.
// It also holds what the steps measured for the rest of the worker. It is the status
// document's gpu.self_test block.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "worker/evidence/plausibility_check.h"

namespace mc::worker {

// TestedGpu names the GPU, board and driver a report is of. So a report is never taken for:
//  - another card in the same slot;
//  - a board of the same model moved into it;
//  - the same card under a new driver.
struct TestedGpu {
  std::string pci_ids;  // "10de:2684"
  std::string driver;   // NVIDIA's driver version, or the VA driver's words
  // The board's PCI address. Older reports that did not name the board lack it.
  std::optional<std::string> pci_address;
  // The board's PCI subsystem ids ("1043:889d"); empty where sysfs shows none.
  std::string subsystem_ids;

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
  // What the steps measured:
  //  - the most encode sessions that opened at once (cap_source "probe");
  //  - the VRAM one 1080p pipeline took;
  //  - the box's libx264 baseline.
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
