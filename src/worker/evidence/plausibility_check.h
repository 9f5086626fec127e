// The plausibility check. A job's process tree may spend about as much CPU time as a CPU encode of
// the same work. Then the job did not run on the GPU, whatever else it shows. The baseline is a
// libx264 encode that the self-test measures once per box. Without one, the check fails closed. The
// same work is counted in frames: every frame decoded and every frame encoded. Each counts at its
// own picture size. The check does not judge in two cases:
// - the plan decodes on the CPU (a 4:2:2, 4:4:4 or 10-bit H.264 input), so the decode's CPU time is
//   the input's honest cost;
// - the job's media duration is unknown (a one-frame clip).
// There the GPU's own evidence of the encode decides (NVML, DRM fdinfo).
#pragma once

#include <optional>
#include <string>

namespace mc::worker {

// CpuBaseline is what a libx264 encode cost on this box. It is CPU seconds per second of media, at
// a picture size and a frame rate.
struct CpuBaseline {
  double cpu_seconds_per_media_second = 0;
  double pixels_per_frame = 0;
  // The self-test's baseline encodes 30 frames a second.
  double frames_per_second = 30;
};

struct PlausibilityInputs {
  double tree_cpu_seconds = 0;
  double media_seconds = 0;
  // The picture size of a frame of the work, where the frames are not counted below.
  double pixels_per_frame = 0;
  std::optional<CpuBaseline> baseline;
  // The largest share of the baseline a hardware job may spend. Hardware jobs spend a few percent
  // (demuxing, audio, muxing). A CPU encode spends all of it.
  double max_fraction = 0.25;
  // ffmpeg's fixed costs, which a hardware job pays as a CPU encode does. They are its start, the
  // input's probe, and the codecs' opening: some 0.1 to 0.3 CPU s. Only what the tree spent beyond
  // them is weighed. So a clip of a second or two is not taken for a CPU encode.
  double startup_cpu_seconds = 0.5;
  // The frames decoded and encoded, and their picture sizes. Where both counts are above 0, they
  // are the work. Else media_seconds at the baseline's rate and pixels_per_frame are.
  double decoded_frames = 0;
  double decoded_pixels = 0;
  double encoded_frames = 0;
  double encoded_pixels = 0;
  // Whether the plan decodes on the CPU. The check then does not judge.
  bool cpu_decode = false;
};

struct PlausibilityVerdict {
  bool ok = false;
  // False where the check could not judge: the plan decodes on the CPU, or the duration is unknown.
  // `ok` is then true, and the GPU's own evidence decides.
  bool judged = true;
  // The tree's CPU time as a share of what libx264 would have spent.
  std::optional<double> fraction_of_baseline;
  std::string evidence;
};

PlausibilityVerdict JudgePlausibility(const PlausibilityInputs& inputs);

}  // namespace mc::worker
