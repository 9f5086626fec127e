// ffmpeg's log as the wrapper reads it. The wrapper asks ffmpeg to tag each line with its level
// ("-loglevel +level"), which ffmpeg's logger writes at the start of a line, after the names of
// the components that speak ("[h264_nvenc @ 0x55d0] [error] ..."). Text of the input (a title,
// a handler name, a chapter) is printed inside an [info] line, or on a continuation line that
// starts with blanks, so an upload cannot write a line that reads as ffmpeg's own error. The
// tags come off again before the runner reads the log: it sees what it always saw.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::worker {

// WithLevelTags is `argv` with the arguments that make ffmpeg tag its lines, first after the
// program, so that they hold whatever level the rest of the command asks for.
std::vector<std::string> WithLevelTags(std::vector<std::string> argv);

// LogLine is one line of ffmpeg's log read by its shape.
struct LogLine {
  // The innermost component's name ("h264_nvenc", "AVHWDeviceContext"), "" when none spoke.
  std::string_view component;
  // "error", "info", ...; "" for a line that ffmpeg's logger did not start, such as the rest
  // of a metadata value that holds a line break.
  std::string_view level;
  std::string_view message;
  // Where the "[level] " tag lies in the line, empty when there is none.
  std::size_t tag_begin = 0;
  std::size_t tag_end = 0;
};

LogLine ReadLogLine(std::string_view line);

// GpuFailureIn gives the first line of `text` that ffmpeg's logger wrote as an error (error,
// fatal or panic) of a component of the hardware path, or of ffmpeg itself, and that names a
// failure of the GPU, its driver or its session cap. Untagged lines never count.
std::optional<std::string> GpuFailureIn(std::string_view text);

// ProcessedSeconds reads the media time of one of ffmpeg's progress lines ("frame=  150 fps=
// ... time=00:00:05.00 bitrate=..."), or nothing for another line or a time not yet known.
std::optional<double> ProcessedSeconds(std::string_view message);

// FfmpegLog reads ffmpeg's stderr as it arrives, in pieces of any size. Read gives back what to
// pass on, whole lines without their level tags; Finish gives what is left of a line that was
// never ended. It keeps the first GPU failure line and the media time of ffmpeg's last
// progress line, which is what ffmpeg really processed, whatever the container claims.
class FfmpegLog {
 public:
  std::string Read(std::string_view piece);
  std::string Finish();
  const std::optional<std::string>& gpu_failure() const { return gpu_failure_; }
  const std::optional<double>& processed_seconds() const { return processed_seconds_; }

 private:
  void TakeLine(std::string_view line, std::string& out);

  std::string pending_;
  bool inside_long_line_ = false;
  std::optional<std::string> gpu_failure_;
  std::optional<double> processed_seconds_;
};

}  // namespace mc::worker
