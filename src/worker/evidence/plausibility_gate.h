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
};

struct PlausibilityVerdict {
  bool ok = false;
  // The tree's CPU time as a share of what libx264 would have spent.
  std::optional<double> fraction_of_baseline;
  std::string evidence;
};

PlausibilityVerdict JudgePlausibility(const PlausibilityInputs& inputs);

}  // namespace mc::worker
