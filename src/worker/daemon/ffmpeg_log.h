// ffmpeg's log as the wrapper reads it. The wrapper asks ffmpeg to tag each line with its level
// ("-loglevel +level"). The logger writes the tag at the line's start, after the names of the
// components that speak:
//    [h264_nvenc @ 0x55d0] [error] ...
// Text of the input is mostly printed inside an [info] line. But ffmpeg prints a metadata key raw,
// line breaks and all. So an upload can write a line that reads as ffmpeg's own "[error] ...". A
// GPU failure therefore counts only on a line of:
// - a component the plan itself put on the GPU (its encoder, decoder, filters);
// - ffmpeg's hardware contexts.
// It never counts on a line without a component. The tags come off before the runner reads the log,
// so it sees what it always saw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::worker {

// WithLevelTags is `argv` with the arguments that make ffmpeg tag its lines. They come first after
// the program. So they hold whatever level the rest of the command asks for.
std::vector<std::string> WithLevelTags(std::vector<std::string> argv);

// LogLine is one line of ffmpeg's log read by its shape.
struct LogLine {
  // The innermost component's name ("h264_nvenc", "AVHWDeviceContext"). "" when none spoke.
  std::string_view component;
  // "error", "info", ... It is "" for a line that ffmpeg's logger did not start. An example is the
  // rest of a metadata value that holds a line break.
  std::string_view level;
  std::string_view message;
  // Where the "[level] " tag lies in the line; empty when there is none.
  std::size_t tag_begin = 0;
  std::size_t tag_end = 0;
};

LogLine ReadLogLine(std::string_view line);

// GpuFailureIn gives the first line of `text` that meets three tests:
// - ffmpeg's logger wrote it as an error (error, fatal or panic);
// - its component is one of `components` or a hardware context;
// - it names a failure of the GPU, its driver or its session cap.
// `components` are the plan's hardware encoders, decoders and filters, by name: "h264_nvenc",
// "scale_cuda". The hardware contexts are AVHWDeviceContext and AVHWFramesContext. Untagged lines
// and lines without a component never count.
std::optional<std::string> GpuFailureIn(std::string_view text,
                                        const std::vector<std::string>& components = {});

// ProcessedSeconds reads the media time of one of ffmpeg's progress lines:
//    frame=  150 fps=... time=00:00:05.00 bitrate=...
// It gives nothing for another line, or for a time not yet known.
std::optional<double> ProcessedSeconds(std::string_view message);

// ProcessedFrames reads the frame count of a progress line ("frame=  150 ...").
std::optional<std::int64_t> ProcessedFrames(std::string_view message);

// FfmpegLog reads ffmpeg's stderr as it arrives, in pieces of any size. Read gives back what to
// pass on: whole lines without their level tags. Finish gives what is left of a line never ended.
// It keeps the first GPU failure line. It keeps the media time of ffmpeg's last progress line. That
// is what ffmpeg really processed, whatever the container claims.
class FfmpegLog {
 public:
  // `components` are the plan's own hardware components, as GpuFailureIn takes them.
  explicit FfmpegLog(std::vector<std::string> components = {})
      : components_(std::move(components)) {}
  std::string Read(std::string_view piece);
  std::string Finish();
  const std::optional<std::string>& gpu_failure() const { return gpu_failure_; }
  const std::optional<double>& processed_seconds() const { return processed_seconds_; }
  const std::optional<std::int64_t>& processed_frames() const { return processed_frames_; }

 private:
  void TakeLine(std::string_view line, std::string& out);

  std::vector<std::string> components_;
  std::string pending_;
  bool inside_long_line_ = false;
  std::optional<std::string> gpu_failure_;
  std::optional<double> processed_seconds_;
  std::optional<std::int64_t> processed_frames_;
};

}  // namespace mc::worker
