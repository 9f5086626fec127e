// The argv check. Before a job's ffmpeg runs, every video output of its command line must use a
// hardware encoder of this worker's device. The community's wrappers fall back to libx264 when the
// hardware encoder fails. These never pass here:
// - a command line that names libx264;
// - one that names no encoder, and so gets ffmpeg's default.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "worker/evidence/evidence.h"
#include "worker/probe_contract/capability_keys.h"

namespace mc::worker {

// HardwareEncoder is one ffmpeg encoder of a GPU API. It names the capability key that must be true
// for this device to take it.
struct HardwareEncoder {
  std::string_view ffmpeg_name;
  // The published `api` it runs on: "nvidia" or "vaapi".
  std::string_view api;
  std::string_view capability_key;
  // Whether only the intel-qsv module takes it. QSV runs on Intel's VA-API driver.
  bool qsv_only = false;
};

inline constexpr std::array<HardwareEncoder, 9> kHardwareEncoders{{
    {"h264_nvenc", "nvidia", "h264_enc"},
    {"hevc_nvenc", "nvidia", "hevc_enc"},
    {"av1_nvenc", "nvidia", "av1_enc"},
    {"h264_vaapi", "vaapi", "h264_enc"},
    {"hevc_vaapi", "vaapi", "hevc_enc"},
    {"av1_vaapi", "vaapi", "av1_enc"},
    {"h264_qsv", "vaapi", "h264_enc", true},
    {"hevc_qsv", "vaapi", "hevc_enc", true},
    {"av1_qsv", "vaapi", "av1_enc", true},
}};

// The hardware decode methods (-hwaccel) of each API. Also the decoders that are hardware by name.
inline constexpr std::array<std::string_view, 4> kHardwareDecoders{
    {"h264_cuvid", "hevc_cuvid", "av1_cuvid", "vp9_cuvid"}};

// ArgvDevice is what the argv check needs of the device: its API, probe module and flags.
struct ArgvDevice {
  // The published `api` of the device: "nvidia" or "vaapi".
  std::string api;
  // The probe module. QSV encoders pass only under intel-qsv.
  std::string probe_module;
  CapabilityFlags capabilities{};
};

struct ArgvVerdict {
  bool ok = false;
  // Why not, naming the output and its encoder. Empty when ok.
  std::string reason;
  // What the command line asks the GPU for:
  // - an encode, when a video output uses a hardware encoder;
  // - a decode, when an input asks for a hardware decoder or -hwaccel.
  Expectation expectation;
  // The outputs, each with its video encoder ("copy", "none" for -vn, or a name).
  std::vector<std::pair<std::string, std::string>> outputs;
};

// JudgeArgv reads an ffmpeg command line (without the program's name) as ffmpeg does. Options
// before an -i belong to that input. Options before any other word belong to the output that word
// names. An option takes a value, unless ffmpeg 5.1 has it as a boolean
// (transcode/ffmpeg_options.h).
ArgvVerdict JudgeArgv(const std::vector<std::string>& argv, const ArgvDevice& device);

}  // namespace mc::worker
