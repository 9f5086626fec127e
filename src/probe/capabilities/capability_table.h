// The capability table: every boolean attribute a media device publishes. Each has the rule that
// makes it true, one column per API (VA-API, NVIDIA). It is data, defined once. These all read it,
// so they cannot drift:
// - the device builder;
// - the log line;
// - the probe's table;
// - the attribute reference in docs/.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_cuviddec.h>
#include <va/va.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mc::probe {

// VaRule: what a VA-API driver must list for a capability to be true.
struct VaRule {
  enum class Kind {
    // The driver lists `profile` with one of `entrypoints`. When rt_format is not 0, one more check
    // holds. vaGetConfigAttributes gives that pair a render-target mask holding rt_format.
    kConfig,
    // The video processor accepts surfaces of pixel format `fourcc`. It is VAProfileNone with
    // VAEntrypointVideoProc.
    kVideoProcFormat,
  };
  Kind kind = Kind::kConfig;
  VAProfile profile = VAProfileNone;
  std::array<VAEntrypoint, 2> entrypoints{};
  std::size_t entrypoint_count = 0;
  std::uint32_t rt_format = 0;
  std::string_view fourcc;
};

// NvRule: what NVIDIA's driver must state for a capability to be true. It states it through NVDEC
// (cuvid), NVENC and CUDA. NVENC codecs and profiles are named as NvidiaFacts names them.
struct NvRule {
  enum class Kind {
    // Nothing NVIDIA offers makes it true. NVENC has no low-power entry point.
    kNever,
    // cuvidGetDecoderCaps says bIsSupported for (codec, chroma, bit_depth).
    kDecoder,
    // An NVENC session lists the codec GUID `nvenc_codec`. It lists the profile GUID
    // `nvenc_profile` for it, unless that is empty. With needs_10bit, the codec's
    // NV_ENC_CAPS_SUPPORT_10BIT_ENCODE is set too.
    kEncoder,
    // A CUDA context worked. Some supported decoder can write `surface_format`, a bit of
    // nOutputFormatMask. Scaling runs in CUDA (scale_cuda) on the decoder's surfaces.
    kScaler,
  };
  Kind kind = Kind::kNever;
  cudaVideoCodec codec = cudaVideoCodec_H264;
  cudaVideoChromaFormat chroma = cudaVideoChromaFormat_420;
  int bit_depth = 8;
  std::string_view nvenc_codec;
  std::string_view nvenc_profile;
  bool needs_10bit = false;
  cudaVideoSurfaceFormat surface_format = cudaVideoSurfaceFormat_NV12;
};

// Listing says what a capability is about, in words for lists people read. The probe's table is
// one. It says what the video engine does, on which codec, at which bit depth.
struct Listing {
  enum class Work { kDecode, kEncode, kEncodeLowPower, kScale };
  Work work = Work::kDecode;
  // The codec in lower case, as VA-API profiles name it: "h264", "hevc", "mpeg2". Empty for
  // scaling, which is of frames, not of a codec.
  std::string_view codec;
  int bit_depth = 8;
};

struct Capability {
  // The attribute's name, such as "decodeHEVCMain10".
  std::string_view name;
  Listing listing;
  // Why the rule reads what it reads, for the reference docs. Empty when the rule says it all.
  std::string_view why;
  VaRule va;
  NvRule nvidia;
  // Why the NVIDIA rule reads what it reads, for the reference docs. Empty when it says it all.
  std::string_view nvidia_why;
};

namespace capability_table_detail {

constexpr VaRule Listed(VAProfile profile, VAEntrypoint entrypoint, std::uint32_t rt_format = 0) {
  return {VaRule::Kind::kConfig, profile, {entrypoint, entrypoint}, 1, rt_format, {}};
}
constexpr VaRule ListedEither(VAProfile profile, VAEntrypoint first, VAEntrypoint second,
                              std::uint32_t rt_format) {
  return {VaRule::Kind::kConfig, profile, {first, second}, 2, rt_format, {}};
}
constexpr VaRule VideoProcAccepts(std::string_view fourcc) {
  return {VaRule::Kind::kVideoProcFormat, VAProfileNone, {}, 0, 0, fourcc};
}

constexpr NvRule NvDecodes(cudaVideoCodec codec, int bit_depth) {
  return {NvRule::Kind::kDecoder,     codec, cudaVideoChromaFormat_420, bit_depth, {}, {}, false,
          cudaVideoSurfaceFormat_NV12};
}
constexpr NvRule NvEncodes(std::string_view codec, std::string_view profile,
                           bool needs_10bit = false) {
  return {NvRule::Kind::kEncoder,
          cudaVideoCodec_H264,
          cudaVideoChromaFormat_420,
          8,
          codec,
          profile,
          needs_10bit,
          cudaVideoSurfaceFormat_NV12};
}
constexpr NvRule NvScales(cudaVideoSurfaceFormat format) {
  return {NvRule::Kind::kScaler,
          cudaVideoCodec_H264,
          cudaVideoChromaFormat_420,
          8,
          {},
          {},
          false,
          format};
}
constexpr NvRule NvNever() { return {}; }

constexpr Listing Decodes(std::string_view codec, int bit_depth) {
  return {Listing::Work::kDecode, codec, bit_depth};
}
constexpr Listing Encodes(std::string_view codec, int bit_depth) {
  return {Listing::Work::kEncode, codec, bit_depth};
}
constexpr Listing EncodesLowPower(std::string_view codec, int bit_depth) {
  return {Listing::Work::kEncodeLowPower, codec, bit_depth};
}
constexpr Listing Scales(int bit_depth) { return {Listing::Work::kScale, {}, bit_depth}; }

}  // namespace capability_table_detail

// kCapabilities holds the eighteen capabilities first. Their order is that of the table in
// docs/reference/attributes.md. The two AV1 encoders come last.
inline constexpr auto kCapabilities = [] {
  using namespace capability_table_detail;
  return std::array{
      Capability{"decodeH264", Decodes("h264", 8), "Nearly every H.264 file uses the High profile.",
                 Listed(VAProfileH264High, VAEntrypointVLD), NvDecodes(cudaVideoCodec_H264, 8),
                 "cuvid asks by codec, chroma format and bit depth, not by profile; 8-bit 4:2:0 is "
                 "the High profile's stream."},
      Capability{"decodeHEVCMain", Decodes("hevc", 8), "",
                 Listed(VAProfileHEVCMain, VAEntrypointVLD), NvDecodes(cudaVideoCodec_HEVC, 8),
                 "Main is HEVC 4:2:0 at 8 bits."},
      Capability{"decodeHEVCMain10", Decodes("hevc", 10), "",
                 Listed(VAProfileHEVCMain10, VAEntrypointVLD), NvDecodes(cudaVideoCodec_HEVC, 10),
                 "Main10 is HEVC 4:2:0 at 10 bits."},
      Capability{"decodeAV1Main", Decodes("av1", 8),
                 "AV1 has one VA-API profile for 8 and 10 bits; the render-target formats give "
                 "its bit depths.",
                 Listed(VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420),
                 NvDecodes(cudaVideoCodec_AV1, 8), "AV1 Main covers 4:2:0 at 8 and 10 bits."},
      Capability{"decodeAV1Main10", Decodes("av1", 10), "",
                 Listed(VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10),
                 NvDecodes(cudaVideoCodec_AV1, 10), ""},
      Capability{"decodeVP9", Decodes("vp9", 8), "", Listed(VAProfileVP9Profile0, VAEntrypointVLD),
                 NvDecodes(cudaVideoCodec_VP9, 8), "Profile 0 is VP9 4:2:0 at 8 bits."},
      Capability{"decodeVP9Profile2", Decodes("vp9", 10), "Profile 2 is 10-bit VP9.",
                 Listed(VAProfileVP9Profile2, VAEntrypointVLD), NvDecodes(cudaVideoCodec_VP9, 10),
                 ""},
      Capability{"decodeVP8", Decodes("vp8", 8), "",
                 Listed(VAProfileVP8Version0_3, VAEntrypointVLD), NvDecodes(cudaVideoCodec_VP8, 8),
                 "VP8 has only 8-bit 4:2:0."},
      Capability{"decodeVC1", Decodes("vc1", 8), "VC-1 on Blu-ray uses the Advanced profile.",
                 Listed(VAProfileVC1Advanced, VAEntrypointVLD), NvDecodes(cudaVideoCodec_VC1, 8),
                 "cuvid's VC-1 decoder takes every profile, Advanced included."},
      Capability{"decodeMPEG2", Decodes("mpeg2", 8), "",
                 Listed(VAProfileMPEG2Main, VAEntrypointVLD), NvDecodes(cudaVideoCodec_MPEG2, 8),
                 "Main is MPEG-2 4:2:0 at 8 bits."},
      Capability{"encodeH264", Encodes("h264", 8), "EncSlice is the full slice encoder.",
                 Listed(VAProfileH264High, VAEntrypointEncSlice), NvEncodes("H264", "High"),
                 "The High profile GUID, as for VA-API's VAProfileH264High."},
      Capability{"encodeHEVCMain", Encodes("hevc", 8), "",
                 Listed(VAProfileHEVCMain, VAEntrypointEncSlice), NvEncodes("HEVC", "Main"), ""},
      Capability{"encodeHEVCMain10", Encodes("hevc", 10), "",
                 Listed(VAProfileHEVCMain10, VAEntrypointEncSlice),
                 NvEncodes("HEVC", "Main10", /*needs_10bit=*/true),
                 "A listed Main10 profile is not enough by itself: the codec's 10-bit encode cap "
                 "must be set too."},
      Capability{"encodeH264LowPower", EncodesLowPower("h264", 8),
                 "EncSliceLP is the low-power encoder; a transcoder chooses between the two in "
                 "its own settings.",
                 Listed(VAProfileH264High, VAEntrypointEncSliceLP), NvNever(),
                 "NVENC has one encoder and no low-power entry point, so no setting could choose "
                 "one."},
      Capability{"encodeHEVCMainLowPower", EncodesLowPower("hevc", 8), "",
                 Listed(VAProfileHEVCMain, VAEntrypointEncSliceLP), NvNever(), ""},
      Capability{"encodeHEVCMain10LowPower", EncodesLowPower("hevc", 10), "",
                 Listed(VAProfileHEVCMain10, VAEntrypointEncSliceLP), NvNever(), ""},
      Capability{"scale8bit", Scales(8), "NV12 is the 8-bit 4:2:0 format.",
                 VideoProcAccepts("NV12"), NvScales(cudaVideoSurfaceFormat_NV12),
                 "NVIDIA scales in CUDA (scale_cuda, scale_npp) on the decoder's surfaces, so it "
                 "takes a working CUDA context and a decoder that writes NV12."},
      Capability{"scale10bit", Scales(10), "P010 is the 10-bit 4:2:0 format.",
                 VideoProcAccepts("P010"), NvScales(cudaVideoSurfaceFormat_P016),
                 "P016 is cuvid's 16-bit container for 10-bit 4:2:0 (P010 in the top bits)."},
      Capability{"encodeAV1Main", Encodes("av1", 8),
                 "Either encoder counts: Intel's iHD lists AV1 encode only as "
                 "EncSliceLP and Mesa only as EncSlice, and no setting chooses between them.",
                 ListedEither(VAProfileAV1Profile0, VAEntrypointEncSlice, VAEntrypointEncSliceLP,
                              VA_RT_FORMAT_YUV420),
                 NvEncodes("AV1", ""),
                 "The AV1 codec GUID (Video Codec SDK 12.0 and later) alone: AV1's "
                 "Main profile holds 8- and 10-bit 4:2:0, so the 10-bit cap, not a profile, tells "
                 "the two apart."},
      Capability{"encodeAV1Main10", Encodes("av1", 10), "As encodeAV1Main, for 10-bit 4:2:0.",
                 ListedEither(VAProfileAV1Profile0, VAEntrypointEncSlice, VAEntrypointEncSliceLP,
                              VA_RT_FORMAT_YUV420_10),
                 NvEncodes("AV1", "", /*needs_10bit=*/true),
                 "As encodeAV1Main, with NV_ENC_CAPS_SUPPORT_10BIT_ENCODE set."},
  };
}();

inline constexpr std::size_t kCapabilityCount = kCapabilities.size();

// CapabilityValues holds one value per row of kCapabilities, in order.
using CapabilityValues = std::array<bool, kCapabilityCount>;

}  // namespace mc::probe
