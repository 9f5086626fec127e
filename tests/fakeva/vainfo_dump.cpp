#include "vainfo_dump.h"

#include <va/va.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "va_names.h"

namespace mc::fakeva {
namespace {

constexpr std::string_view kWhitespace = " \t\r\f\v";
constexpr std::string_view kDriverVersion = "Driver version:";

std::string_view TrimLeft(std::string_view text) {
  const std::size_t start = text.find_first_not_of(kWhitespace);
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

std::string_view TrimRight(std::string_view text) {
  const std::size_t end = text.find_last_not_of(kWhitespace);
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

std::string_view Trim(std::string_view text) { return TrimRight(TrimLeft(text)); }

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// TakeName removes the identifier that `text` starts with and returns it (empty when
// `text` does not start with one).
std::string_view TakeName(std::string_view& text) {
  std::size_t length = 0;
  while (length < text.size() && IsNameChar(text[length])) ++length;
  const std::string_view name = text.substr(0, length);
  text.remove_prefix(length);
  return name;
}

// A line that names one pair: vainfo's plain listing prints "Profile : Entrypoint", and
// `vainfo -a` opens each pair's block with "Profile/Entrypoint".
struct PairLine {
  std::string_view profile;
  std::string_view entrypoint;
  bool opens_block = false;
};

std::optional<PairLine> ReadPairLine(std::string_view line) {
  PairLine pair;
  pair.profile = TakeName(line);
  if (!pair.profile.starts_with("VAProfile")) return std::nullopt;
  line = TrimLeft(line);
  if (line.empty() || (line.front() != ':' && line.front() != '/')) return std::nullopt;
  pair.opens_block = line.front() == '/';
  line = TrimLeft(line.substr(1));
  pair.entrypoint = TakeName(line);
  if (!pair.entrypoint.starts_with("VAEntrypoint") || !Trim(line).empty()) return std::nullopt;
  return pair;
}

// An attribute line of `vainfo -a`: "VAConfigAttribRTFormat   : VA_RT_FORMAT_YUV420".
struct AttributeLine {
  std::string_view name;
  std::string_view value;
};

std::optional<AttributeLine> ReadAttributeLine(std::string_view line) {
  AttributeLine attribute;
  attribute.name = TakeName(line);
  if (!attribute.name.starts_with("VAConfigAttrib")) return std::nullopt;
  line = TrimLeft(line);
  if (line.empty() || line.front() != ':') return std::nullopt;
  attribute.value = Trim(line.substr(1));
  return attribute;
}

// RtFormatsIn ORs the bits of every VA_RT_FORMAT_* name in `text`.
// Names va.h lacks add nothing.
// Older vainfo versions pad the names with spaces.
// A hand-edited dump may put several on one line.
// So any run of spaces, commas or bars separates them.
std::uint32_t RtFormatsIn(std::string_view text) {
  std::uint32_t formats = 0;
  while (!text.empty()) {
    const std::size_t start = text.find_first_not_of(" \t,|");
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const std::size_t end = std::min(text.find_first_of(" \t,|"), text.size());
    if (const auto bit = RtFormatFromName(text.substr(0, end))) formats |= *bit;
    text.remove_prefix(end);
  }
  return formats;
}

// Lines that show the text is vainfo's or libva's output even though they carry no fact
// the driver restates.
bool IsVainfoChatter(std::string_view line) {
  return line.starts_with("libva ") || line.find("vainfo:") != std::string_view::npos ||
         line.find("VA-API version") != std::string_view::npos ||
         line.find("vaInitialize failed") != std::string_view::npos ||
         line.find("vaGetDisplay") != std::string_view::npos || line.starts_with("Trying display:");
}

// DumpReader keeps what the lines read so far have stated. One instance reads one text.
class DumpReader {
 public:
  void Read(std::string_view raw_line) {
    // A quoted dump (mail, forum) prefixes lines with '>'; nothing in vainfo's output does.
    std::string_view line = Trim(raw_line);
    while (line.starts_with('>')) line = TrimLeft(line.substr(1));

    if (line.empty()) {
      // vainfo -a ends every pair's block with an empty line.
      current_ = std::nullopt;
      in_rt_formats_ = false;
      return;
    }
    if (const std::size_t at = raw_line.find(kDriverVersion); at != std::string_view::npos) {
      ReadVendor(raw_line.substr(at + kDriverVersion.size()));
      return;
    }
    if (const auto pair = ReadPairLine(line)) {
      ReadPair(*pair);
      return;
    }
    if (const auto attribute = ReadAttributeLine(line)) {
      ReadAttribute(*attribute);
      return;
    }
    if (in_rt_formats_ && line.starts_with("VA_RT_FORMAT_")) {
      // vainfo -a prints the second and later formats of a pair on lines of their own.
      AddRtFormats(RtFormatsIn(line));
      return;
    }
    in_rt_formats_ = false;
    if (line.find("VAEntrypoint") != std::string_view::npos) {
      // A pair this reader cannot name (an older libva prints "<unknown profile>"): the
      // attribute lines that follow are that pair's, not the previous one's.
      current_ = std::nullopt;
      recognised_ = true;
      return;
    }
    if (IsVainfoChatter(line)) recognised_ = true;
    if (line.find("Supported config attributes") != std::string_view::npos)
      dump_.has_formats = true;
  }

  Result<VainfoDump> Finish() && {
    if (!recognised_) return Error{"the text holds no line of vainfo's output"};
    for (std::size_t i = 0; i < dump_.configs.size(); ++i) {
      if (dump_.configs[i].rt_formats == 0) dump_.configs[i].rt_formats = VA_RT_FORMAT_YUV420;
    }
    return std::move(dump_);
  }

 private:
  void ReadVendor(std::string_view rest) {
    recognised_ = true;
    // A second run pasted into the same dump does not replace the first one's vendor.
    if (dump_.initialised) return;
    dump_.initialised = true;
    // vainfo prints "Driver version: %s": one separator, then the driver's string as is.
    if (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    dump_.vendor = std::string(TrimRight(rest));
  }

  void ReadPair(const PairLine& pair) {
    recognised_ = true;
    in_rt_formats_ = false;
    if (pair.opens_block) dump_.has_formats = true;
    const auto profile = ProfileFromName(pair.profile);
    const auto entrypoint = EntrypointFromName(pair.entrypoint);
    if (!profile || !entrypoint) {
      current_ = std::nullopt;
      return;
    }
    const auto found = std::ranges::find_if(dump_.configs, [&](const VainfoConfig& config) {
      return config.profile == *profile && config.entrypoint == *entrypoint;
    });
    current_ = static_cast<std::size_t>(found - dump_.configs.begin());
    if (found == dump_.configs.end()) dump_.configs.push_back({*profile, *entrypoint, 0});
  }

  void ReadAttribute(const AttributeLine& attribute) {
    recognised_ = true;
    in_rt_formats_ = attribute.name == "VAConfigAttribRTFormat";
    if (!in_rt_formats_) return;
    dump_.has_formats = true;
    AddRtFormats(RtFormatsIn(attribute.value));
  }

  void AddRtFormats(std::uint32_t formats) {
    if (current_) dump_.configs[*current_].rt_formats |= formats;
  }

  VainfoDump dump_;
  bool recognised_ = false;
  // The pair whose attribute lines are being read, as an index into dump_.configs.
  std::optional<std::size_t> current_;
  // Whether the last attribute line was VAConfigAttribRTFormat, whose further values
  // follow on continuation lines.
  bool in_rt_formats_ = false;
};

}  // namespace

Result<VainfoDump> ParseVainfoDump(std::string_view text) {
  DumpReader reader;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    reader.Read(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return std::move(reader).Finish();
}

Result<VainfoDump> ReadVainfoDump(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open " + path.string() + ": " + std::strerror(errno)};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return Error{"cannot read " + path.string()};
  Result<VainfoDump> dump = ParseVainfoDump(text);
  if (!dump) return Error{path.string() + ": " + dump.error_message()};
  return dump;
}

}  // namespace mc::fakeva
