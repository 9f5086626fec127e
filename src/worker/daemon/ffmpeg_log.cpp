#include "worker/daemon/ffmpeg_log.h"

#include <array>
#include <cstdint>

#include "common/base/text.h"

namespace mc::worker {
namespace {

// What ffmpeg prints when the GPU, its driver or its session cap fails it. Each starts a failure of
// the hardware path, never of the input or the muxer.
constexpr std::array<std::string_view, 16> kGpuFailureMarks{{
    "OpenEncodeSessionEx failed",
    "EncodePicture failed",
    "No capable devices found",
    "NV_ENC_ERR",
    "CUDA_ERROR_",
    "cuCtxCreate",
    "Cannot load libcuda",
    "Could not dynamically load CUDA",
    "cuvidCreateDecoder failed",
    "Failed setup for format cuda",
    "Failed setup for format vaapi",
    "device does not exist",
    "Failed to initialise VAAPI",
    "Failed to create a VAAPI",
    "vaCreateContext",
    "Device creation failed",
}};

// ffmpeg's hardware device and frames contexts. They speak for every hardware path.
constexpr std::array<std::string_view, 2> kHardwareContexts{
    {"AVHWDeviceContext", "AVHWFramesContext"}};
// ffmpeg's level names, as its logger writes them in a tag.
constexpr std::array<std::string_view, 9> kLevels{
    {"quiet", "panic", "fatal", "error", "warning", "info", "verbose", "debug", "trace"}};
constexpr std::array<std::string_view, 3> kErrorLevels{{"panic", "fatal", "error"}};

template <std::size_t N>
bool OneOf(std::string_view text, const std::array<std::string_view, N>& set) {
  for (const std::string_view item : set)
    if (text == item) return true;
  return false;
}

// The component named "[name @ 0x55d0] " at `at`, or nothing. `at` moves past it.
std::optional<std::string_view> ComponentAt(std::string_view line, std::size_t& at) {
  if (at >= line.size() || line[at] != '[') return std::nullopt;
  const std::size_t close = line.find(']', at);
  if (close == std::string_view::npos || close + 1 >= line.size() || line[close + 1] != ' ')
    return std::nullopt;
  const std::string_view inside = line.substr(at + 1, close - at - 1);
  const std::size_t separator = inside.rfind(" @ 0x");
  if (separator == std::string_view::npos) return std::nullopt;
  const std::string_view address = inside.substr(separator + 5);
  if (address.empty() || address.find_first_not_of("0123456789abcdef") != std::string_view::npos)
    return std::nullopt;
  at = close + 2;
  return inside.substr(0, separator);
}

// A filter speaks as "Parsed_NAME_N", N its place in the graph.
bool IsFilterInstance(std::string_view component, std::string_view name) {
  constexpr std::string_view kParsed = "Parsed_";
  if (!component.starts_with(kParsed)) return false;
  component.remove_prefix(kParsed.size());
  if (!component.starts_with(name) || component.size() < name.size() + 2) return false;
  component.remove_prefix(name.size());
  return component[0] == '_' &&
         component.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

// Whether `component` is one of the plan's own hardware components, or a hardware context. An empty
// component is ffmpeg's own line. An input's metadata key can write one.
bool HardwareComponent(std::string_view component, const std::vector<std::string>& components) {
  if (component.empty()) return false;
  if (OneOf(component, kHardwareContexts)) return true;
  for (const std::string& name : components)
    if (!name.empty() && (component == name || IsFilterInstance(component, name))) return true;
  return false;
}

// FailureOf gives `line`, read as `read`, when it is a GPU failure. The tag is taken off, and the
// line made printable.
std::optional<std::string> FailureOf(std::string_view line, const LogLine& read,
                                     const std::vector<std::string>& components) {
  if (!OneOf(read.level, kErrorLevels) || !HardwareComponent(read.component, components))
    return std::nullopt;
  for (const std::string_view mark : kGpuFailureMarks) {
    if (read.message.find(mark) != std::string_view::npos)
      return PrintableLine(std::string(line.substr(0, read.tag_begin)) +
                           std::string(line.substr(read.tag_end)));
  }
  return std::nullopt;
}

// A longer line is passed on as it is, unread. ffmpeg's own lines are short.
constexpr std::size_t kLongestLine = 65536;

}  // namespace

std::vector<std::string> WithLevelTags(std::vector<std::string> argv) {
  if (argv.empty()) return argv;
  argv.insert(argv.begin() + 1, {"-loglevel", "+level"});
  return argv;
}

LogLine ReadLogLine(std::string_view line) {
  LogLine read{.message = line};
  std::size_t at = 0;
  std::string_view component;
  while (const std::optional<std::string_view> name = ComponentAt(line, at)) component = *name;
  if (at >= line.size() || line[at] != '[') return read;
  const std::size_t close = line.find("] ", at);
  if (close == std::string_view::npos) return read;
  const std::string_view level = line.substr(at + 1, close - at - 1);
  if (!OneOf(level, kLevels)) return read;
  return {.component = component,
          .level = level,
          .message = line.substr(close + 2),
          .tag_begin = at,
          .tag_end = close + 2};
}

std::optional<double> ProcessedSeconds(std::string_view message) {
  if (!message.starts_with("frame=") && !message.starts_with("size=")) return std::nullopt;
  const std::size_t at = message.find(" time=");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view clock = message.substr(at + 6);
  clock = clock.substr(0, clock.find(' '));
  // HH:MM:SS.ff, the hours of any width. "N/A" and a start's negative times are not read.
  const std::size_t first = clock.find(':');
  const std::size_t second = first == std::string_view::npos ? first : clock.find(':', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const std::optional<std::int64_t> hours = ParseInteger<std::int64_t>(clock.substr(0, first));
  const std::optional<std::int64_t> minutes =
      ParseInteger<std::int64_t>(clock.substr(first + 1, second - first - 1));
  const std::optional<double> seconds = ParseDouble(clock.substr(second + 1));
  if (!hours || !minutes || !seconds || *hours < 0 || *hours > 1'000'000 || *minutes < 0 ||
      *minutes > 59 || !(*seconds >= 0 && *seconds < 60))
    return std::nullopt;
  return static_cast<double>(*hours * 3600 + *minutes * 60) + *seconds;
}

std::optional<std::int64_t> ProcessedFrames(std::string_view message) {
  if (!message.starts_with("frame=")) return std::nullopt;
  std::string_view count = message.substr(6);
  const std::size_t digits = count.find_first_not_of(' ');
  if (digits == std::string_view::npos) return std::nullopt;
  count = count.substr(digits);
  count = count.substr(0, count.find(' '));
  const std::optional<std::int64_t> frames = ParseInteger<std::int64_t>(count);
  if (!frames || *frames < 0) return std::nullopt;
  return frames;
}

std::optional<std::string> GpuFailureIn(std::string_view text,
                                        const std::vector<std::string>& components) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (std::optional<std::string> failure = FailureOf(line, ReadLogLine(line), components))
      return failure;
    start = end + 1;
  }
  return std::nullopt;
}

void FfmpegLog::TakeLine(std::string_view line, std::string& out) {
  // A line too long to read is passed on unread. So is the rest of a line passed on in part. That
  // rest is no line of its own: its start is the input's.
  if (inside_long_line_ || line.size() > kLongestLine) {
    inside_long_line_ = false;
    out.append(line);
    return;
  }
  const LogLine read = ReadLogLine(line);
  out.append(line.substr(0, read.tag_begin));
  out.append(line.substr(read.tag_end));
  if (!gpu_failure_) gpu_failure_ = FailureOf(line, read, components_);
  // Progress is ffmpeg's own line: at level info, with no component speaking.
  if (read.level == "info" && read.component.empty()) {
    if (std::optional<double> seconds = ProcessedSeconds(read.message))
      processed_seconds_ = seconds;
    if (std::optional<std::int64_t> frames = ProcessedFrames(read.message))
      processed_frames_ = frames;
  }
}

std::string FfmpegLog::Read(std::string_view piece) {
  pending_.append(piece);
  std::string out;
  std::size_t start = 0;
  for (std::size_t end = pending_.find_first_of("\r\n"); end != std::string::npos;
       end = pending_.find_first_of("\r\n", start)) {
    TakeLine(std::string_view(pending_).substr(start, end - start), out);
    out.push_back(pending_[end]);
    start = end + 1;
  }
  pending_.erase(0, start);
  if (pending_.size() > kLongestLine) {
    out.append(pending_);
    pending_.clear();
    inside_long_line_ = true;
  }
  return out;
}

std::string FfmpegLog::Finish() {
  std::string out;
  if (!pending_.empty()) TakeLine(pending_, out);
  pending_.clear();
  return out;
}

}  // namespace mc::worker
