// The names vainfo prints for VA-API profiles, entrypoints and render-target formats.
// Also the numbers va.h gives them.
// A recorded vainfo text holds only names; the fake driver has to state numbers.
// So both directions live here.
// They are taken from the installed va.h, so they cannot drift from the libva tested.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mc::fakeva {

// ProfileFromName maps "VAProfileH264High" to 7; nullopt for a name this va.h lacks.
std::optional<int> ProfileFromName(std::string_view name);
// EntrypointFromName maps "VAEntrypointVLD" to 1; nullopt for a name this va.h lacks.
std::optional<int> EntrypointFromName(std::string_view name);
// RtFormatFromName maps "VA_RT_FORMAT_YUV420_10" (or its older alias
// "VA_RT_FORMAT_YUV420_10BPP") to its bit; nullopt for a name this va.h lacks.
std::optional<std::uint32_t> RtFormatFromName(std::string_view name);

// The canonical names, as Debian's vainfo prints them; empty for a value va.h lacks.
std::string_view ProfileName(int profile);
std::string_view EntrypointName(int entrypoint);

// RtFormatBit is one VA_RT_FORMAT_* bit with the name vainfo -a prints first for it.
struct RtFormatBit {
  std::uint32_t bit;
  std::string_view name;
};
// Every render-target format bit va.h defines, in the order vainfo -a lists them, once
// each (the deprecated aliases are left out).
std::span<const RtFormatBit> RtFormatBits();

}  // namespace mc::fakeva
