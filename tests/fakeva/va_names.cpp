#include "va_names.h"

#include <va/va.h>

#include <algorithm>
#include <array>

namespace mc::fakeva {
namespace {

struct Named {
  std::string_view name;
  int value;
};

// Each entry spells the enumerator once, so that the number always comes from va.h.
#define FAKEVA_NAMED(enumerator) \
  Named { #enumerator, enumerator }

constexpr std::array kProfiles = {
    FAKEVA_NAMED(VAProfileNone),
    FAKEVA_NAMED(VAProfileMPEG2Simple),
    FAKEVA_NAMED(VAProfileMPEG2Main),
    FAKEVA_NAMED(VAProfileMPEG4Simple),
    FAKEVA_NAMED(VAProfileMPEG4AdvancedSimple),
    FAKEVA_NAMED(VAProfileMPEG4Main),
    // va.h marks VAProfileH264Baseline deprecated, so naming the enumerator would warn;
    // old drivers still list it, and old dumps show it, under this number.
    Named{"VAProfileH264Baseline", 5},
    FAKEVA_NAMED(VAProfileH264Main),
    FAKEVA_NAMED(VAProfileH264High),
    FAKEVA_NAMED(VAProfileVC1Simple),
    FAKEVA_NAMED(VAProfileVC1Main),
    FAKEVA_NAMED(VAProfileVC1Advanced),
    FAKEVA_NAMED(VAProfileH263Baseline),
    FAKEVA_NAMED(VAProfileJPEGBaseline),
    FAKEVA_NAMED(VAProfileH264ConstrainedBaseline),
    FAKEVA_NAMED(VAProfileVP8Version0_3),
    FAKEVA_NAMED(VAProfileH264MultiviewHigh),
    FAKEVA_NAMED(VAProfileH264StereoHigh),
    FAKEVA_NAMED(VAProfileHEVCMain),
    FAKEVA_NAMED(VAProfileHEVCMain10),
    FAKEVA_NAMED(VAProfileVP9Profile0),
    FAKEVA_NAMED(VAProfileVP9Profile1),
    FAKEVA_NAMED(VAProfileVP9Profile2),
    FAKEVA_NAMED(VAProfileVP9Profile3),
    FAKEVA_NAMED(VAProfileHEVCMain12),
    FAKEVA_NAMED(VAProfileHEVCMain422_10),
    FAKEVA_NAMED(VAProfileHEVCMain422_12),
    FAKEVA_NAMED(VAProfileHEVCMain444),
    FAKEVA_NAMED(VAProfileHEVCMain444_10),
    FAKEVA_NAMED(VAProfileHEVCMain444_12),
    FAKEVA_NAMED(VAProfileHEVCSccMain),
    FAKEVA_NAMED(VAProfileHEVCSccMain10),
    FAKEVA_NAMED(VAProfileHEVCSccMain444),
    FAKEVA_NAMED(VAProfileAV1Profile0),
    FAKEVA_NAMED(VAProfileAV1Profile1),
    FAKEVA_NAMED(VAProfileHEVCSccMain444_10),
    FAKEVA_NAMED(VAProfileProtected),
};

constexpr std::array kEntrypoints = {
    FAKEVA_NAMED(VAEntrypointVLD),
    FAKEVA_NAMED(VAEntrypointIZZ),
    FAKEVA_NAMED(VAEntrypointIDCT),
    FAKEVA_NAMED(VAEntrypointMoComp),
    FAKEVA_NAMED(VAEntrypointDeblocking),
    FAKEVA_NAMED(VAEntrypointEncSlice),
    FAKEVA_NAMED(VAEntrypointEncPicture),
    FAKEVA_NAMED(VAEntrypointEncSliceLP),
    FAKEVA_NAMED(VAEntrypointVideoProc),
    FAKEVA_NAMED(VAEntrypointFEI),
    FAKEVA_NAMED(VAEntrypointStats),
    FAKEVA_NAMED(VAEntrypointProtectedTEEComm),
    FAKEVA_NAMED(VAEntrypointProtectedContent),
};

#undef FAKEVA_NAMED

#define FAKEVA_RT_FORMAT(macro) \
  RtFormatBit { macro, #macro }

// The order is vainfo -a's (libva-utils' show_config_attributes).
// It prints one line per set bit in this order.
// A text written in it reads back the same.
constexpr std::array kRtFormats = {
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV420),    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV422),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV444),    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV411),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV400),    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV420_10),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV422_10), FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV444_10),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV420_12), FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV422_12),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV444_12), FAKEVA_RT_FORMAT(VA_RT_FORMAT_RGB16),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_RGB32),     FAKEVA_RT_FORMAT(VA_RT_FORMAT_RGBP),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_RGB32_10),  FAKEVA_RT_FORMAT(VA_RT_FORMAT_PROTECTED),
};

// vainfo -a prints these deprecated aliases as well, after the canonical names, for the
// same bits; a dump that shows them means nothing more.
constexpr std::array kRtFormatAliases = {
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_RGB32_10BPP),
    FAKEVA_RT_FORMAT(VA_RT_FORMAT_YUV420_10BPP),
};

#undef FAKEVA_RT_FORMAT

template <typename Table>
std::optional<int> ValueOf(const Table& table, std::string_view name) {
  const auto found = std::ranges::find(table, name, &Named::name);
  if (found == table.end()) return std::nullopt;
  return found->value;
}

template <typename Table>
std::string_view NameOf(const Table& table, int value) {
  const auto found = std::ranges::find(table, value, &Named::value);
  return found == table.end() ? std::string_view() : found->name;
}

}  // namespace

std::optional<int> ProfileFromName(std::string_view name) { return ValueOf(kProfiles, name); }

std::optional<int> EntrypointFromName(std::string_view name) { return ValueOf(kEntrypoints, name); }

std::optional<std::uint32_t> RtFormatFromName(std::string_view name) {
  for (const std::span<const RtFormatBit> table :
       {std::span<const RtFormatBit>(kRtFormats), std::span<const RtFormatBit>(kRtFormatAliases)}) {
    const auto found = std::ranges::find(table, name, &RtFormatBit::name);
    if (found != table.end()) return found->bit;
  }
  return std::nullopt;
}

std::string_view ProfileName(int profile) { return NameOf(kProfiles, profile); }

std::string_view EntrypointName(int entrypoint) { return NameOf(kEntrypoints, entrypoint); }

std::span<const RtFormatBit> RtFormatBits() { return kRtFormats; }

}  // namespace mc::fakeva
