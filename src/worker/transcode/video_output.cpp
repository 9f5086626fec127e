#include "worker/transcode/video_output.h"

#include <algorithm>
#include <iterator>

#include "common/base/text.h"
#include "worker/transcode/ffmpeg_options.h"

namespace mc::worker {
namespace {

// What becomes of each option of a translated output. An option not listed is kept as
// the runner wrote it.
enum class Rule {
  kDrop,         // x264's alone: h264_nvenc and h264_vaapi have no such option, or reject it
  kBFrames,      // -bf: capped by PlanOptions::max_b_frames, else dropped
  kPixelFormat,  // -pix_fmt: an 8-bit 4:2:0 one goes into the GPU scaler's format=
  kFilter,       // -vf: the runner's scale becomes the GPU's
  kSizeOption,   // -s: ffmpeg would scale on the CPU, between the GPU's frames and the encoder
  kProfile,      // -profile:v: kept, unless it asks for more than 8-bit 4:2:0
};

struct OptionRule {
  std::string_view base;  // the option without its stream specifier
  Rule rule;
};

// clang-format off
constexpr OptionRule kOptionRules[] = {
    {"-preset",     Rule::kDrop},
    {"-tune",       Rule::kDrop},
    {"-b_strategy", Rule::kDrop},
    {"-x264opts",   Rule::kDrop},
    {"-x264-params", Rule::kDrop},
    {"-crf",        Rule::kDrop},
    {"-bf",         Rule::kBFrames},
    {"-pix_fmt",    Rule::kPixelFormat},
    {"-vf",         Rule::kFilter},
    {"-filter",     Rule::kFilter},
    {"-s",          Rule::kSizeOption},
    {"-profile",    Rule::kProfile},
};
// clang-format on

// H.264's largest picture on NVENC, every generation. See the NVENC application note's
// table.
constexpr int kNvencH264MaxSize = 4096;

// Every GPU scaler writes this pixel format. Every GPU H.264 encoder takes it.
constexpr std::string_view kGpuPixelFormat = "nv12";

const OptionRule* RuleOf(const CommandOption& option) {
  const std::string_view base = StreamOptionBase(option.name);
  const std::string_view specifier = StreamSpecifier(option.name);
  // An option for audio or subtitles only is no video option. Examples: -filter:a,
  // -profile:a.
  if (!specifier.empty() && !specifier.starts_with("v")) return nullptr;
  for (const OptionRule& rule : kOptionRules) {
    if (rule.base == base) return &rule;
  }
  return nullptr;
}

std::string Written(const CommandOption& option) {
  return option.value ? option.name + " " + *option.value : option.name;
}

std::string OutputName(const CommandOutput& output, int number) {
  return "output " + std::to_string(number) + " (" + output.path + ")";
}

bool IsNvidia(const PlanDevice& device) { return device.api == "nvidia"; }

// FilterChain gives the -vf of the translated output:
//  - the upload, where the frames come from the CPU;
//  - then the GPU's scaler, which also sets the pixel format the encoder gets.
std::string FilterChain(const ScaleRequest& scale, bool scaled, const OutputContext& context) {
  const bool nvidia = IsNvidia(*context.device);
  std::string chain;
  if (context.frames == FrameSource::kCpuUploaded) {
    chain = "format=" + std::string(kGpuPixelFormat) + ",";
    chain += nvidia ? "hwupload_cuda=device=" + std::to_string(context.options->cuda_ordinal)
                    : "hwupload";
    chain += ",";
  }
  chain += nvidia ? "scale_cuda=" : "scale_vaapi=";
  if (scaled) chain += "w=" + scale.width + ":h=" + scale.height + ":";
  chain += "format=" + std::string(kGpuPixelFormat);
  return chain;
}

// EncoderOptions gives the options in place of the runner's -vcodec libx264.
std::vector<std::string> EncoderOptions(const OutputContext& context,
                                        const std::optional<std::string>& target_bitrate) {
  const PlanDevice& device = *context.device;
  std::vector<std::string> words = {"-c:v", H264EncoderOf(device)};
  if (IsNvidia(device)) {
    words.insert(words.end(), {"-gpu", std::to_string(context.options->cuda_ordinal), "-preset",
                               context.options->nvenc_preset});
    if (target_bitrate) words.insert(words.end(), {"-rc", "vbr", "-b:v", *target_bitrate});
  } else {
    if (!device.Flag("encodeH264") && device.Flag("encodeH264LowPower")) {
      words.insert(words.end(), {"-low_power", "1"});
    }
    if (target_bitrate) words.insert(words.end(), {"-rc_mode", "VBR", "-b:v", *target_bitrate});
  }
  return words;
}

// AsOptions turns words (name, value, name, value...) into options at `position`.
std::vector<CommandOption> AsOptions(const std::vector<std::string>& words, int position) {
  std::vector<CommandOption> options;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
    options.push_back({words[i], words[i + 1], position});
  }
  return options;
}

// TargetBitrate is the runner's -maxrate:v. It is PeerTube's target bitrate for the
// rendition.
std::optional<std::string> TargetBitrate(const CommandOutput& output) {
  const CommandOption* maxrate = output.Last({"-maxrate", "-maxrate:v", "-maxrate:v:0"});
  if (!maxrate || !maxrate->value) return std::nullopt;
  return maxrate->value;
}

// The runner's options of one output, sorted by their rules:
//  - those kept;
//  - those dropped;
//  - the scale asked for;
//  - where the encoder's options and the filter go.
struct SortedOptions {
  ScaleRequest scale;
  bool scaled = false;
  std::vector<std::string> dropped;
  std::vector<CommandOption> kept;
  int codec_position = 0;
  std::optional<std::size_t> codec_index;
  std::optional<std::size_t> filter_index;
};

// Applies one option's rule to `sorted`. The error says why the output cannot be
// translated.
Result<void> ApplyRule(Rule rule, const CommandOption& option, const OutputContext& context,
                       const std::string& name, SortedOptions& sorted) {
  const std::string& device_name = context.device->name;
  const std::string value = option.value.value_or("");
  switch (rule) {
    case Rule::kDrop:
      sorted.dropped.push_back(Written(option));
      break;
    case Rule::kBFrames:
      if (context.options->max_b_frames) {
        const std::optional<int> asked = ParseInteger<int>(value);
        if (!asked) return InvalidInput(name + ": -bf \"" + value + "\" is not a number");
        sorted.kept.push_back(
            {option.name, std::to_string(std::clamp(*asked, 0, *context.options->max_b_frames)),
             option.position});
      } else {
        sorted.dropped.push_back(Written(option));
      }
      break;
    case Rule::kPixelFormat:
      if (BitDepthOfPixelFormat(value) > 8 || !IsChroma420(value)) {
        return Unsupported(name + " asks for an H.264 encode in " + value + " (" + option.name +
                           "), which " + device_name +
                           " does not do: its H.264 encoder takes 8-bit 4:2:0 alone");
      }
      break;
    case Rule::kFilter: {
      Result<ScaleRequest> request = ParseScaleFilter(value);
      if (!request) return Unsupported(name + ": " + request.error_message());
      sorted.scale = *request;
      sorted.scaled = true;
      sorted.filter_index = sorted.kept.size();
      sorted.kept.push_back({option.name, "", option.position});
      break;
    }
    case Rule::kSizeOption:
      return Unsupported(name + ": " + Written(option) +
                         " would scale on the CPU; only a scale filter (-vf) is translated");
    case Rule::kProfile:
      if (value == "high10" || value == "high422" || value == "high444" || value == "high444p") {
        return Unsupported(name + " asks for H.264 profile " + value + ", which " + device_name +
                           " does not encode");
      }
      sorted.kept.push_back(option);
      break;
  }
  return Ok();
}

Result<SortedOptions> SortOptions(const CommandOutput& output, const OutputContext& context,
                                  const std::string& name) {
  SortedOptions sorted;
  // Where the encoder's options go: at the runner's codec option. Else they go before the
  // output's first option.
  sorted.codec_position =
      output.options.empty() ? output.position : output.options.front().position;
  for (const CommandOption& option : output.options) {
    if (IsVideoCodecOption(option.name)) {
      if (!sorted.codec_index) {
        sorted.codec_index = sorted.kept.size();
        sorted.codec_position = option.position;
      }
      continue;
    }
    const OptionRule* rule = RuleOf(option);
    if (!rule) {
      sorted.kept.push_back(option);
      continue;
    }
    if (Result<void> applied = ApplyRule(rule->rule, option, context, name, sorted); !applied)
      return applied.error();
  }
  return sorted;
}

// The translated output's options:
//  - those kept;
//  - the GPU's filter chain;
//  - the encoder's options, where the runner's codec was.
std::vector<CommandOption> TranslatedOptions(const CommandOutput& output,
                                             const OutputContext& context, SortedOptions sorted) {
  // The frames stay on the GPU. So the filter goes in even where the runner wrote none.
  const std::string chain = FilterChain(sorted.scale, sorted.scaled, context);
  std::vector<CommandOption>& kept = sorted.kept;
  if (sorted.filter_index) {
    kept[*sorted.filter_index].name = "-vf";
    kept[*sorted.filter_index].value = chain;
  }
  std::vector<CommandOption> encoder =
      AsOptions(EncoderOptions(context, TargetBitrate(output)), sorted.codec_position);
  if (!sorted.filter_index) encoder.push_back({"-vf", chain, sorted.codec_position});
  const std::size_t insert_at = sorted.codec_index.value_or(0);
  kept.insert(kept.begin() + static_cast<std::ptrdiff_t>(insert_at), encoder.begin(),
              encoder.end());
  return std::move(kept);
}

// The output's -r, a number or a ratio such as 30000/1001. It is 0 where the output names none
// or the value is neither.
double FpsOf(const CommandOutput& output) {
  const CommandOption* rate = output.Last({"-r", "-r:v"});
  if (!rate || !rate->value) return 0;
  const std::string_view value = *rate->value;
  const std::size_t slash = value.find('/');
  if (slash == std::string_view::npos) return ParseDouble(value).value_or(0);
  const std::optional<double> frames = ParseDouble(value.substr(0, slash));
  const std::optional<double> seconds = ParseDouble(value.substr(slash + 1));
  return frames && seconds && *seconds > 0 ? *frames / *seconds : 0;
}

// The note that names x264's options dropped. It says what the GPU's encoder does instead.
std::string DroppedNote(const std::string& name, const std::vector<std::string>& dropped,
                        const OutputContext& context) {
  std::string note = name + ": x264's own options dropped: ";
  for (std::size_t i = 0; i < dropped.size(); ++i) note += (i ? ", " : "") + dropped[i];
  if (IsNvidia(*context.device)) {
    note += " (NVENC's -preset " + context.options->nvenc_preset +
            " instead; its preset chooses the B-frames)";
  } else {
    note += " (the VA-API driver's defaults instead)";
  }
  return note;
}

}  // namespace

std::string H264EncoderOf(const PlanDevice& device) {
  if (IsNvidia(device)) return device.Flag("encodeH264") ? "h264_nvenc" : "";
  if (device.Flag("encodeH264") || device.Flag("encodeH264LowPower")) return "h264_vaapi";
  return "";
}

Result<TranslatedOutput> TranslateVideoOutput(const CommandOutput& output,
                                              const OutputContext& context) {
  const std::string name = OutputName(output, context.number);
  const std::string& device_name = context.device->name;
  TranslatedOutput translated;
  translated.output.path = output.path;
  translated.output.position = output.position;
  translated.encoder = H264EncoderOf(*context.device);

  Result<SortedOptions> sorted = SortOptions(output, context, name);
  if (!sorted) return sorted.error();
  const ScaleRequest scale = sorted->scale;
  const std::vector<std::string> dropped = sorted->dropped;
  translated.output.options = TranslatedOptions(output, context, std::move(*sorted));

  const InputFacts& facts = *context.facts;
  translated.size = OutputSizeOf(scale, {facts.width, facts.height});
  if (IsNvidia(*context.device) &&
      (translated.size.width > kNvencH264MaxSize || translated.size.height > kNvencH264MaxSize)) {
    return Unsupported(name + ": the picture " + std::to_string(translated.size.width) + "x" +
                       std::to_string(translated.size.height) +
                       " is larger than h264_nvenc takes (" + std::to_string(kNvencH264MaxSize) +
                       "x" + std::to_string(kNvencH264MaxSize) + ") on " + device_name);
  }
  translated.fps = FpsOf(output);
  if (!dropped.empty()) translated.notes.push_back(DroppedNote(name, dropped, context));
  return translated;
}

}  // namespace mc::worker
