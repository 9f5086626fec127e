#include "worker/evidence/argv_check.h"

#include <algorithm>

#include "worker/transcode/ffmpeg_options.h"

namespace mc::worker {
namespace {

// IsFlag says whether an option takes no value. Every other option takes one. That is how the check
// tells an option's value from an output file. The table is the translation's. So the check and the
// plan read a command line alike.
bool IsFlag(std::string_view option) { return worker::TakesNoValue(option); }

// VideoCodecOption says whether an option sets the encoder (or decoder) of video streams: -c:v,
// -codec:v, -vcodec, -c:v:0, ... The bare -c and -codec set every stream's.
enum class CodecScope { kNone, kVideo, kAll };
CodecScope ScopeOf(std::string_view option) {
  if (option == "-vcodec") return CodecScope::kVideo;
  for (std::string_view base : {"-c", "-codec"}) {
    if (option == base) return CodecScope::kAll;
    if (option.starts_with(base) && option.size() > base.size() + 1 && option[base.size()] == ':') {
      const std::string_view specifier = option.substr(base.size() + 1);
      return specifier == "v" || specifier.starts_with("v:") ? CodecScope::kVideo
                                                             : CodecScope::kNone;
    }
  }
  return CodecScope::kNone;
}

bool IsHardwareDecoder(std::string_view name) {
  return std::find(kHardwareDecoders.begin(), kHardwareDecoders.end(), name) !=
             kHardwareDecoders.end() ||
         name.ends_with("_qsv") || name.ends_with("_cuvid");
}

// EncoderOfThisDevice gives the table's row for an encoder name this device takes. Else nullptr,
// with the reason in `why`.
const HardwareEncoder* EncoderOfThisDevice(std::string_view name, const ArgvDevice& device,
                                           std::string& why) {
  for (const HardwareEncoder& encoder : kHardwareEncoders) {
    if (encoder.ffmpeg_name != name) continue;
    if (encoder.api != device.api) {
      why = std::string(name) + " runs on " + std::string(encoder.api) +
            ", and this device is asked through " + device.api;
      return nullptr;
    }
    if (encoder.qsv_only && device.probe_module != "intel-qsv") {
      why = std::string(name) + " is Intel QSV's, and this worker's probe module is " +
            device.probe_module;
      return nullptr;
    }
    for (std::size_t i = 0; i < kCapabilityKeys.size(); ++i) {
      if (kCapabilityKeys[i].key == encoder.capability_key && !device.capabilities[i]) {
        why = std::string(name) + " needs " + std::string(encoder.capability_key) +
              ", which this device does not state";
        return nullptr;
      }
    }
    return &encoder;
  }
  why = std::string(name) + " is not a hardware encoder of this device (a CPU encoder, or unknown)";
  return nullptr;
}

struct PendingOptions {
  std::string video_codec;  // empty: not set
  bool no_video = false;
  bool hwaccel = false;
  std::string decoder;
  std::string format;
};

// A null sink (-f null) takes decoded frames through ffmpeg's pass-through encoders. That is a
// decode-only pass, with no encode for a CPU to take over.
bool IsNullSink(const PendingOptions& pending) {
  return pending.format == "null" &&
         (pending.video_codec.empty() || pending.video_codec == "wrapped_avframe" ||
          pending.video_codec == "rawvideo");
}

}  // namespace

ArgvVerdict JudgeArgv(const std::vector<std::string>& argv, const ArgvDevice& device) {
  ArgvVerdict verdict;
  PendingOptions pending;
  bool any_input = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word.size() > 1 && word[0] == '-') {
      if (IsFlag(word)) {
        if (word == "-vn") pending.no_video = true;
        continue;
      }
      if (i + 1 >= argv.size()) {
        verdict.reason = "option " + word + " has no value at the end of the command line";
        return verdict;
      }
      const std::string& value = argv[++i];
      if (word == "-i") {
        any_input = true;
        if (pending.hwaccel || IsHardwareDecoder(pending.decoder))
          verdict.expectation.decode = true;
        pending = {};
        continue;
      }
      if (word == "-hwaccel" && value != "none") pending.hwaccel = true;
      if (word == "-f") pending.format = value;
      const CodecScope scope = ScopeOf(word);
      if (scope != CodecScope::kNone) {
        pending.video_codec = value;
        pending.decoder = value;
      }
      continue;
    }
    // A word that is no option's value is an output.
    if (!any_input) {
      verdict.reason = "output " + word + " comes before any input (-i)";
      return verdict;
    }
    if (IsNullSink(pending)) {
      verdict.outputs.emplace_back(word, "none (null sink)");
      pending = {};
      continue;
    }
    std::string encoder = pending.no_video ? "none" : pending.video_codec;
    verdict.outputs.emplace_back(word, encoder.empty() ? "ffmpeg's default" : encoder);
    if (!pending.no_video) {
      if (encoder.empty()) {
        verdict.reason =
            "output " + word + " names no video encoder, so ffmpeg would choose a CPU encoder";
        return verdict;
      }
      if (encoder != "copy") {
        std::string why;
        if (!EncoderOfThisDevice(encoder, device, why)) {
          verdict.reason = "output " + word + ": " + why;
          return verdict;
        }
        verdict.expectation.encode = true;
      }
    }
    pending = {};
  }
  if (verdict.outputs.empty()) {
    verdict.reason = "the command line names no output";
    return verdict;
  }
  verdict.ok = true;
  return verdict;
}

}  // namespace mc::worker
