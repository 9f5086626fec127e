#include "worker/evidence/plausibility_gate.h"

#include <algorithm>
#include <sstream>

namespace mc::worker {

PlausibilityVerdict JudgePlausibility(const PlausibilityInputs& inputs) {
  PlausibilityVerdict verdict;
  if (!inputs.baseline || inputs.baseline->cpu_seconds_per_media_second <= 0 ||
      inputs.baseline->pixels_per_frame <= 0) {
    verdict.evidence =
        "no CPU-encode baseline is measured on this box, so the CPU time cannot be judged";
    return verdict;
  }
  if (inputs.media_seconds <= 0 || inputs.pixels_per_frame <= 0) {
    verdict.evidence =
        "the job's media duration and picture size are unknown, so the CPU time cannot be judged";
    return verdict;
  }
  const CpuBaseline& baseline = *inputs.baseline;
  const double expected = baseline.cpu_seconds_per_media_second * inputs.media_seconds *
                          (inputs.pixels_per_frame / baseline.pixels_per_frame);
  const double beyond_start = std::max(0.0, inputs.tree_cpu_seconds - inputs.startup_cpu_seconds);
  const double fraction = beyond_start / expected;
  verdict.fraction_of_baseline = fraction;
  std::ostringstream evidence;
  evidence << "the process tree spent " << inputs.tree_cpu_seconds << " CPU s, " << beyond_start
           << " beyond ffmpeg's start (" << inputs.startup_cpu_seconds
           << " s): " << static_cast<int>(fraction * 100 + 0.5) << " % of the " << expected
           << " s a libx264 encode of the same work takes here (at most "
           << static_cast<int>(inputs.max_fraction * 100 + 0.5) << " %)";
  verdict.ok = fraction <= inputs.max_fraction;
  verdict.evidence = (verdict.ok ? "" : "CPU-encode-shaped: ") + evidence.str();
  return verdict;
}

}  // namespace mc::worker
