// The ffmpeg command lines of the self-test, as data. They say:
//  - which encoder and decoder of each API codes each codec family;
//  - how each step's command names the one device under test.
// They are pure functions, so the tests can read every command the self-test would run.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace mc::worker {

// SelfTestTarget is the device as ffmpeg names it.
struct SelfTestTarget {
  // "nvidia" or "vaapi".
  std::string api;
  // NVIDIA: CUDA's ordinal of the GPU in PCI bus order (the self-test sets CUDA_DEVICE_ORDER
  // so that CUDA counts as the probe does).
  int cuda_index = 0;
  // VA-API: the render node ffmpeg opens.
  std::string render_node;
};

// An encoded codec: the capability key that claims it and each API's hardware encoder.
struct EncodeCodec {
  std::string_view codec;
  std::string_view capability;
  std::string_view nvidia_encoder;
  std::string_view vaapi_encoder;
};

inline constexpr std::array<EncodeCodec, 3> kEncodeCodecs = {{
    {"h264", "h264_enc", "h264_nvenc", "h264_vaapi"},
    {"hevc", "hevc_enc", "hevc_nvenc", "hevc_vaapi"},
    {"av1", "av1_enc", "av1_nvenc", "av1_vaapi"},
}};

// A decoded codec family:
//  - the published attribute that claims it;
//  - NVIDIA's cuvid decoder;
//  - the test stream's file name;
//  - the software encoder that can make that stream.
struct DecodeFamily {
  std::string_view family;
  std::string_view attribute;
  std::string_view nvidia_decoder;
  std::string_view stream_file;
  std::string_view software_encoder;
};

inline constexpr std::array<DecodeFamily, 4> kDecodeFamilies = {{
    {"h264", "decodeH264", "h264_cuvid", "h264.mp4", "libx264"},
    {"hevc", "decodeHEVCMain", "hevc_cuvid", "hevc.mp4", "libx265"},
    {"av1", "decodeAV1Main", "av1_cuvid", "av1.mp4", "libsvtav1"},
    {"vp9", "decodeVP9", "vp9_cuvid", "vp9.webm", "libvpx-vp9"},
}};

std::string_view EncoderFor(const SelfTestTarget& target, const EncodeCodec& codec);

// EncodeArgv encodes `seconds` of a generated picture of the given size on the device into
// `output` ("-" with the null muxer when empty).
std::vector<std::string> EncodeArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                    const EncodeCodec& codec, const std::string& size, int seconds,
                                    const std::string& output);

// SessionEncodeArgv is one of the session-slot test's parallel encodes. It reads a small
// picture at its own pace (-re). So every encode holds its session for the same two seconds.
std::vector<std::string> SessionEncodeArgv(const std::string& ffmpeg, const SelfTestTarget& target);

// PipelineArgv decodes `input`, scales it and encodes it with H.264, all on the GPU. The
// frames stay in GPU memory throughout.
std::vector<std::string> PipelineArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                      const std::string& input);

// DecodeArgv decodes `input` on the GPU into the null sink, `loops` times over. So a short
// stream keeps the decoder busy long enough for the sampler to see it.
std::vector<std::string> DecodeArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                    const DecodeFamily& family, const std::string& input,
                                    int loops);

// StreamArgv makes a family's 1080p test stream with a software encoder of this ffmpeg.
std::vector<std::string> StreamArgv(const std::string& ffmpeg, const DecodeFamily& family,
                                    const std::string& output);

// ListArgv asks ffmpeg for its encoders ("-encoders") or decoders ("-decoders").
std::vector<std::string> ListArgv(const std::string& ffmpeg, const std::string& what);

}  // namespace mc::worker
