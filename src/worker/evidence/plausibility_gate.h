// The plausibility gate: a job whose process tree spent about as much CPU time as a CPU
// encode of the same work did not run on the GPU, whatever else it shows. The baseline is a
// libx264 encode that the self-test measures once per box; without one, the gate cannot judge
// and fails closed.
#pragma once

#include <optional>
#include <string>

namespace mc::worker {

// CpuBaseline is what a libx264 encode cost on this box: CPU seconds per second of media, at a
// picture size.
struct CpuBaseline {
  double cpu_seconds_per_media_second = 0;
  double pixels_per_frame = 0;
};

struct PlausibilityInputs {
  double tree_cpu_seconds = 0;
  double media_seconds = 0;
  double pixels_per_frame = 0;
  std::optional<CpuBaseline> baseline;
  // The largest share of the baseline a hardware job may spend; hardware jobs spend a few
  // percent (demuxing, audio, muxing), a CPU encode all of it.
  double max_fraction = 0.25;
  // ffmpeg's fixed costs, which a hardware job pays as a CPU encode does: its start, the
  // input's probe, the codecs' opening (some 0.1 to 0.3 CPU s here). Only what the tree spent
  // beyond them is weighed, so that a clip of a second or two is not taken for a CPU encode.
  double startup_cpu_seconds = 0.5;
};

struct PlausibilityVerdict {
  bool ok = false;
  // The tree's CPU time as a share of what libx264 would have spent.
  std::optional<double> fraction_of_baseline;
  std::string evidence;
};

PlausibilityVerdict JudgePlausibility(const PlausibilityInputs& inputs);

}  // namespace mc::worker
