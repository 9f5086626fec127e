#include "worker/transcode/runner_command.h"

#include <algorithm>

#include "common/base/text.h"
#include "worker/transcode/ffmpeg_options.h"

namespace mc::worker {
namespace {

std::string Place(std::size_t index, const std::string& word) {
  return "argument " + std::to_string(index + 1) + " (" + word + ")";
}

bool IsOptionWord(const std::string& word) { return word.size() > 1 && word[0] == '-'; }

// InputOfMap gives the input index a -map value names ("1:v", "0", "-0:a"), or -1.
int InputOfMap(const std::string& value) {
  const std::size_t start = 0;
  std::size_t end = start;
  while (end < value.size() && value[end] >= '0' && value[end] <= '9') ++end;
  if (end == start || end - start > 4) return -1;
  return ParseInteger<int>(std::string_view(value).substr(start, end - start)).value_or(-1);
}

}  // namespace

const CommandOption* CommandOutput::Last(const std::vector<std::string>& names) const {
  const CommandOption* found = nullptr;
  for (const CommandOption& option : options) {
    if (std::find(names.begin(), names.end(), option.name) != names.end()) found = &option;
  }
  return found;
}

bool IsVideoCodecOption(const std::string& name) {
  if (name == "-vcodec" || name == "-c" || name == "-codec") return true;
  const std::string_view base = StreamOptionBase(name);
  const std::string_view specifier = StreamSpecifier(name);
  return (base == "-c" || base == "-codec") && (specifier == "v" || specifier.starts_with("v:"));
}

std::string VideoCodecOf(const CommandOutput& output) {
  std::string codec;
  for (const CommandOption& option : output.options) {
    if (IsVideoCodecOption(option.name) && option.value) codec = *option.value;
  }
  return codec;
}

bool DropsVideo(const CommandOutput& output) {
  return std::any_of(output.options.begin(), output.options.end(),
                     [](const CommandOption& option) { return option.name == "-vn"; });
}

bool WritesImage(const CommandOutput& output) {
  static constexpr std::string_view kImageFormats[] = {"image2", "mjpeg", "singlejpeg",
                                                       "apng",   "webp",  "gif"};
  static constexpr std::string_view kImageCodecs[] = {"mjpeg",   "png", "apng",
                                                      "libwebp", "bmp", "gif"};
  static constexpr std::string_view kImageExtensions[] = {".jpg",  ".jpeg", ".png",
                                                          ".webp", ".bmp",  ".gif"};
  const auto listed = [](const auto& table, std::string_view value) {
    return std::find(std::begin(table), std::end(table), value) != std::end(table);
  };
  if (const CommandOption* format = output.Last({"-f"}); format && format->value)
    return listed(kImageFormats, *format->value);
  const std::string codec = VideoCodecOf(output);
  if (!codec.empty()) return listed(kImageCodecs, codec);
  const std::size_t dot = output.path.rfind('.');
  if (dot == std::string::npos || output.path.find('/', dot) != std::string::npos) return false;
  return listed(kImageExtensions, AsciiLower(output.path.substr(dot)));
}

Result<RunnerCommand> ParseRunnerCommand(const std::vector<std::string>& args) {
  RunnerCommand command;
  std::vector<CommandOption> pending;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.empty()) return InvalidInput(Place(i, word) + ": an empty argument");
    if (!IsOptionWord(word)) {
      if (command.inputs.empty()) {
        return InvalidInput(Place(i, word) + ": an output file before any input (-i)");
      }
      command.outputs.push_back({std::move(pending), word, static_cast<int>(i)});
      pending.clear();
      continue;
    }
    CommandOption option{word, std::nullopt, static_cast<int>(i)};
    if (IsListingOption(word)) {
      if (TakesOptionalTopic(word) && i + 1 < args.size() && !IsOptionWord(args[i + 1]) &&
          command.inputs.empty()) {
        option.value = args[++i];
      }
      command.global_options.push_back(std::move(option));
      continue;
    }
    if (!TakesNoValue(word)) {
      if (i + 1 >= args.size()) return InvalidInput(Place(i, word) + ": the option has no value");
      option.value = args[++i];
    }
    if (word == "-i") {
      if (option.value->empty()) return InvalidInput(Place(i - 1, word) + ": an empty input path");
      command.inputs.push_back({std::move(pending), *option.value, option.position});
      pending.clear();
    } else if (IsGlobalOption(word)) {
      command.global_options.push_back(std::move(option));
    } else {
      pending.push_back(std::move(option));
    }
  }
  if (!pending.empty()) {
    const CommandOption& first = pending.front();
    return InvalidInput(Place(static_cast<std::size_t>(first.position), first.name) +
                        ": options after the last output apply to no file");
  }
  return command;
}

std::vector<std::string> RenderCommand(const RunnerCommand& command) {
  struct Piece {
    int position;
    std::vector<std::string> words;
  };
  std::vector<Piece> pieces;
  const auto add_option = [&pieces](const CommandOption& option) {
    Piece piece{option.position, {option.name}};
    if (option.value) piece.words.push_back(*option.value);
    pieces.push_back(std::move(piece));
  };
  for (const CommandOption& option : command.global_options) add_option(option);
  for (const CommandInput& input : command.inputs) {
    for (const CommandOption& option : input.options) add_option(option);
    pieces.push_back({input.position, {"-i", input.path}});
  }
  for (const CommandOutput& output : command.outputs) {
    for (const CommandOption& option : output.options) add_option(option);
    pieces.push_back({output.position, {output.path}});
  }
  // A stable sort keeps the pieces of one position in the order they were added:
  // - an input's options before its -i;
  // - an output's options before its file;
  // - a replacement's options in the order the plan wrote them.
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece& a, const Piece& b) { return a.position < b.position; });
  std::vector<std::string> argv;
  for (Piece& piece : pieces) {
    for (std::string& word : piece.words) argv.push_back(std::move(word));
  }
  return argv;
}

CommandKind KindOf(const RunnerCommand& command) {
  if (command.inputs.empty()) {
    const bool listing =
        std::any_of(command.global_options.begin(), command.global_options.end(),
                    [](const CommandOption& option) { return IsListingOption(option.name); });
    return listing ? CommandKind::kListing : CommandKind::kOther;
  }
  if (command.outputs.empty()) return CommandKind::kProbe;
  bool all_drop_video = true;
  bool all_images = true;
  for (const CommandOutput& output : command.outputs) {
    const bool image = WritesImage(output);
    all_images = all_images && image;
    if (DropsVideo(output)) continue;
    all_drop_video = false;
    if (!image && VideoCodecOf(output) != "copy") return CommandKind::kVideoEncode;
  }
  if (all_drop_video) return CommandKind::kAudioOnly;
  return all_images ? CommandKind::kImage : CommandKind::kOther;
}

const char* CommandKindName(CommandKind kind) {
  switch (kind) {
    case CommandKind::kListing:
      return "listing";
    case CommandKind::kProbe:
      return "probe";
    case CommandKind::kAudioOnly:
      return "audio-only";
    case CommandKind::kImage:
      return "image";
    case CommandKind::kVideoEncode:
      return "video-encode";
    case CommandKind::kOther:
      return "other";
  }
  return "other";
}

std::vector<std::string> InputsToProbe(const RunnerCommand& command) {
  if (KindOf(command) != CommandKind::kVideoEncode) return {};
  std::vector<std::string> paths;
  for (const CommandOutput& output : command.outputs) {
    for (const CommandOption& option : output.options) {
      if (option.name != "-map" || !option.value) continue;
      const std::string& value = *option.value;
      if (value.starts_with("-")) continue;  // a negative map takes streams away
      if (value.find(":v") == std::string::npos && value.find(':') != std::string::npos) continue;
      const int input = InputOfMap(value);
      if (input < 0 || input >= static_cast<int>(command.inputs.size())) continue;
      const std::string& path = command.inputs[static_cast<std::size_t>(input)].path;
      if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
    }
  }
  if (paths.empty()) paths.push_back(command.inputs.front().path);
  return paths;
}

}  // namespace mc::worker
