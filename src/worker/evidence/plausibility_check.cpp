#include "worker/evidence/plausibility_check.h"

#include <algorithm>
#include <sstream>

namespace mc::worker {
namespace {

PlausibilityVerdict CannotJudge(std::string why) {
  return {.ok = true,
          .judged = false,
          .evidence =
              "the CPU time is not judged: " + std::move(why) + "; the GPU's own evidence decides"};
}

// The CPU seconds libx264 would spend on the job's work. It counts the frames, each weighed by its
// picture size against the baseline's frame. 0 where the work is unknown.
double ExpectedCpuSeconds(const PlausibilityInputs& inputs, const CpuBaseline& baseline) {
  const double baseline_fps = baseline.frames_per_second > 0 ? baseline.frames_per_second : 30;
  const double per_frame_pixel =
      baseline.cpu_seconds_per_media_second / (baseline_fps * baseline.pixels_per_frame);
  if (inputs.decoded_frames > 0 && inputs.encoded_frames > 0) {
    return per_frame_pixel * (inputs.decoded_frames * inputs.decoded_pixels +
                              inputs.encoded_frames * inputs.encoded_pixels);
  }
  if (inputs.media_seconds <= 0 || inputs.pixels_per_frame <= 0) return 0;
  return per_frame_pixel * baseline_fps * inputs.media_seconds * inputs.pixels_per_frame;
}

}  // namespace

PlausibilityVerdict JudgePlausibility(const PlausibilityInputs& inputs) {
  PlausibilityVerdict verdict;
  if (!inputs.baseline || inputs.baseline->cpu_seconds_per_media_second <= 0 ||
      inputs.baseline->pixels_per_frame <= 0) {
    verdict.evidence =
        "no CPU-encode baseline is measured on this box, so the CPU time cannot be judged";
    return verdict;
  }
  if (inputs.cpu_decode)
    return CannotJudge("the plan decodes the input on the CPU, which costs what the input costs");
  const CpuBaseline& baseline = *inputs.baseline;
  const double expected = ExpectedCpuSeconds(inputs, baseline);
  if (!(expected > 0))
    return CannotJudge("the job's media duration or picture size is unknown (" +
                       std::to_string(inputs.media_seconds) + " s of media)");
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
