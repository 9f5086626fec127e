// `media-capabilities ffmpeg`, what the official runner's FFMPEG_PATH points at (through a
// link named ffmpeg): it passes through what is not a video encode, translates the runner's
// libx264 command lines into this worker's GPU pipeline (src/worker/transcode), takes session slots
// from the worker before ffmpeg starts, runs ffmpeg under the evidence sampler, and fails the
// job when the GPU showed no work. It never runs a software encoder.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::worker {

// Where the wrapper finds the worker and the real programs: the variables the worker sets for
// the runner it starts (PT_WORKER_SOCKET, PT_WORKER_FFMPEG, PT_WORKER_FFPROBE).
struct WrapperEnvironment {
  std::string socket;
  std::string ffmpeg = "/usr/bin/ffmpeg";
  std::string ffprobe = "/usr/bin/ffprobe";
  // The folders of the sandbox beyond the job's (LD_LIBRARY_PATH, LIBVA_DRIVERS_PATH,
  // PT_WORKER_SANDBOX_PATHS), and whether a kernel without Landlock refuses every job
  // (PT_WORKER_REQUIRE_SANDBOX) rather than run ffmpeg unboxed with a note.
  std::string library_path;
  std::string va_drivers_path;
  std::string sandbox_paths;
  bool require_sandbox = false;
};

WrapperEnvironment WrapperEnvironmentFrom(
    const std::function<std::optional<std::string>(std::string_view)>& variable);

// The prefix of every line the wrapper itself prints; the runner sends the last lines of
// stderr to PeerTube as the job's error.
inline constexpr std::string_view kWrapperPrefix = "media-capabilities ffmpeg: ";

// RunFfmpegWrapper is the whole command; `args` are ffmpeg's arguments without the program
// name. It returns the exit status (it does not return when it passes through: it execs).
int RunFfmpegWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment);

// RunFfprobeWrapper execs the real ffprobe: probing is never a GPU's work.
int RunFfprobeWrapper(const std::vector<std::string>& args, const WrapperEnvironment& environment);

}  // namespace mc::worker
