// `media-capabilities ffmpeg`: the official runner's FFMPEG_PATH points at it, through a link named
// ffmpeg. It:
// - passes through what is not a video encode;
// - translates the runner's libx264 command lines into this worker's GPU pipeline
//   (src/worker/transcode);
// - takes session slots from the worker before ffmpeg starts;
// - runs ffmpeg under the evidence sampler;
// - fails the job when the GPU showed no work.
// It never runs a software encoder.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "worker/transcode/input_facts.h"

namespace mc::worker {

// Where the wrapper finds the worker and the real programs. The worker sets these variables for the
// runner it starts: PT_WORKER_SOCKET, PT_WORKER_FFMPEG, PT_WORKER_FFPROBE.
struct WrapperEnvironment {
  std::string socket;
  std::string ffmpeg = "/usr/bin/ffmpeg";
  std::string ffprobe = "/usr/bin/ffprobe";
  // The folders of the sandbox beyond the job's: LD_LIBRARY_PATH, LIBVA_DRIVERS_PATH,
  // PT_WORKER_SANDBOX_PATHS. And whether a kernel without Landlock refuses every job
  // (PT_WORKER_REQUIRE_SANDBOX). Otherwise ffmpeg runs unboxed, with a note.
  std::string library_path;
  std::string va_drivers_path;
  std::string sandbox_paths;
  bool require_sandbox = false;
};

WrapperEnvironment WrapperEnvironmentFrom(
    const std::function<std::optional<std::string>(std::string_view)>& variable);

// The prefix of every line the wrapper itself prints. The runner sends the last lines of stderr to
// PeerTube as the job's error.
inline constexpr std::string_view kWrapperPrefix = "media-capabilities ffmpeg: ";

// RunFfmpegWrapper is the whole command. `args` are ffmpeg's arguments without the program name. It
// returns the exit status. When it passes through, it execs and does not return.
int RunFfmpegWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment);

// ReportedOutputSize is the picture a run writes, as its report to the worker states it. The height
// is the plan's, else the input's. The width follows the input's aspect. The input's size is what
// the upload states. So each side is worked out in 64 bits and held to kMaxReportedPictureSide
// (local_protocol.h). A hostile aspect then neither overflows nor makes the worker refuse the
// report.
std::pair<std::int64_t, std::int64_t> ReportedOutputSize(std::int64_t plan_height,
                                                         const InputFacts& input);

// RunFfprobeWrapper execs the real ffprobe. Probing is never a GPU's work.
int RunFfprobeWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment);

}  // namespace mc::worker
