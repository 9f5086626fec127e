#include "vainfo_dump_format.h"

#include <string_view>

#include "va_names.h"

namespace mc::fakeva {
namespace {

// The widths are libva-utils' (vainfo.c): "      %-32s:\t%s" for a listed pair,
// "    %-39s: " before an attribute's first value and 45 spaces before each further one.
std::string Padded(std::string_view text, std::size_t width) {
  std::string padded(text);
  if (padded.size() < width) padded.append(width - padded.size(), ' ');
  return padded;
}

void AppendPlainPair(std::string& text, const VainfoConfig& config) {
  text += "      " + Padded(ProfileName(config.profile), 32) + ":\t" +
          std::string(EntrypointName(config.entrypoint)) + "\n";
}

void AppendBlock(std::string& text, const VainfoConfig& config) {
  text += std::string(ProfileName(config.profile)) + "/" +
          std::string(EntrypointName(config.entrypoint)) + "\n";
  bool first = true;
  for (const RtFormatBit& format : RtFormatBits()) {
    if ((config.rt_formats & format.bit) == 0) continue;
    text += first ? "    " + Padded("VAConfigAttribRTFormat", 39) + ": " : std::string(45, ' ');
    text += std::string(format.name) + "\n";
    first = false;
  }
  text += "\n";
}

}  // namespace

std::string FormatVainfoDump(const VainfoDump& dump) {
  if (!dump.initialised) {
    return "vaInitialize failed with error code -1 (unknown libva error),exit\n";
  }
  std::string text = "vainfo: VA-API version: 1.17 (libva 2.17.0)\n";
  text += "vainfo: Driver version: " + dump.vendor + "\n";
  if (dump.has_formats) {
    text += "vainfo: Supported config attributes per profile/entrypoint pair\n";
    for (const VainfoConfig& config : dump.configs) AppendBlock(text, config);
  } else {
    text += "vainfo: Supported profile and entrypoints\n";
    for (const VainfoConfig& config : dump.configs) AppendPlainPair(text, config);
  }
  return text;
}

}  // namespace mc::fakeva
