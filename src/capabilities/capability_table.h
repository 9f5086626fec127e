// The capability table: every boolean attribute a media device publishes, with the rule
// that makes it true. It is data, defined once, and the device builder, the log line, the
// probe's table and the attribute reference in docs/ all read it, so they cannot drift.
#pragma once

#include <va/va.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mc {

// VaRule says what a VA-API driver must list for a capability to be true.
struct VaRule {
  enum class Kind {
    // The driver lists `profile` with one of `entrypoints`, and, when rt_format is not 0,
    // vaGetConfigAttributes gives that pair a render-target mask holding rt_format.
    kConfig,
    // The video processor (VAProfileNone with VAEntrypointVideoProc) accepts surfaces
    // of the pixel format `fourcc`.
    kVideoProcFormat,
  };
  Kind kind = Kind::kConfig;
  VAProfile profile = VAProfileNone;
  std::array<VAEntrypoint, 2> entrypoints{};
  std::size_t entrypoint_count = 0;
  std::uint32_t rt_format = 0;
  std::string_view fourcc;
};

struct Capability {
  // The attribute's name, such as "decodeHEVCMain10".
  std::string_view name;
  // Why the rule reads what it reads, for the reference docs; empty when the rule says
  // it all.
  std::string_view why;
  VaRule va;
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

}  // namespace capability_table_detail

// kCapabilities is in the order of the seed's table, with the two AV1 encoders last.
inline constexpr auto kCapabilities = [] {
  using namespace capability_table_detail;
  return std::array{
      Capability{"decodeH264", "Nearly every H.264 file uses the High profile.",
                 Listed(VAProfileH264High, VAEntrypointVLD)},
      Capability{"decodeHEVCMain", "", Listed(VAProfileHEVCMain, VAEntrypointVLD)},
      Capability{"decodeHEVCMain10", "", Listed(VAProfileHEVCMain10, VAEntrypointVLD)},
      Capability{"decodeAV1Main",
                 "AV1 has one VA-API profile for 8 and 10 bits; the render-target formats give "
                 "its bit depths.",
                 Listed(VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420)},
      Capability{"decodeAV1Main10", "",
                 Listed(VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10)},
      Capability{"decodeVP9", "", Listed(VAProfileVP9Profile0, VAEntrypointVLD)},
      Capability{"decodeVP9Profile2", "Profile 2 is 10-bit VP9.",
                 Listed(VAProfileVP9Profile2, VAEntrypointVLD)},
      Capability{"decodeVP8", "", Listed(VAProfileVP8Version0_3, VAEntrypointVLD)},
      Capability{"decodeVC1", "VC-1 on Blu-ray uses the Advanced profile.",
                 Listed(VAProfileVC1Advanced, VAEntrypointVLD)},
      Capability{"decodeMPEG2", "", Listed(VAProfileMPEG2Main, VAEntrypointVLD)},
      Capability{"encodeH264", "EncSlice is the full slice encoder.",
                 Listed(VAProfileH264High, VAEntrypointEncSlice)},
      Capability{"encodeHEVCMain", "", Listed(VAProfileHEVCMain, VAEntrypointEncSlice)},
      Capability{"encodeHEVCMain10", "", Listed(VAProfileHEVCMain10, VAEntrypointEncSlice)},
      Capability{"encodeH264LowPower",
                 "EncSliceLP is the low-power encoder; a transcoder chooses between the two in "
                 "its own settings.",
                 Listed(VAProfileH264High, VAEntrypointEncSliceLP)},
      Capability{"encodeHEVCMainLowPower", "", Listed(VAProfileHEVCMain, VAEntrypointEncSliceLP)},
      Capability{"encodeHEVCMain10LowPower", "",
                 Listed(VAProfileHEVCMain10, VAEntrypointEncSliceLP)},
      Capability{"scale8bit", "NV12 is the 8-bit 4:2:0 format.", VideoProcAccepts("NV12")},
      Capability{"scale10bit", "P010 is the 10-bit 4:2:0 format.", VideoProcAccepts("P010")},
      Capability{"encodeAV1Main",
                 "Beyond the seed. Either encoder counts: Intel's iHD lists AV1 encode only as "
                 "EncSliceLP and Mesa only as EncSlice, and no setting chooses between them.",
                 ListedEither(VAProfileAV1Profile0, VAEntrypointEncSlice, VAEntrypointEncSliceLP,
                              VA_RT_FORMAT_YUV420)},
      Capability{"encodeAV1Main10", "Beyond the seed.",
                 ListedEither(VAProfileAV1Profile0, VAEntrypointEncSlice, VAEntrypointEncSliceLP,
                              VA_RT_FORMAT_YUV420_10)},
  };
}();

inline constexpr std::size_t kCapabilityCount = kCapabilities.size();

// CapabilityValues holds one value per row of kCapabilities, in its order.
using CapabilityValues = std::array<bool, kCapabilityCount>;

}  // namespace mc
