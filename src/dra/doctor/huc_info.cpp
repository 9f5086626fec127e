#include "dra/doctor/huc_info.h"

#include "common/base/text.h"

namespace mc::dra {
namespace {

// A line of the HuC file without the spaces, tabs and carriage return around it.
std::string_view Trimmed(std::string_view text) { return Trim(text, " \t\r"); }

}  // namespace

Result<HucInfo> ParseHucInfo(std::string_view text) {
  HucInfo info;
  bool seen_header = false;
  bool seen_status = false;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = Trimmed(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    constexpr std::string_view kHeader = "HuC firmware:";
    constexpr std::string_view kStatus = "status:";
    if (!seen_header && line.starts_with(kHeader)) {
      info.firmware = PrintableLine(Trimmed(line.substr(kHeader.size())));
      seen_header = true;
    } else if (seen_header && !seen_status && line.starts_with(kStatus)) {
      info.status = PrintableLine(Trimmed(line.substr(kStatus.size())));
      seen_status = true;
    }
  }
  if (!seen_header) return InvalidInput("huc_info: no line 'HuC firmware: ...'");
  if (!seen_status || info.status.empty())
    return InvalidInput("huc_info: no 'status: ...' line after 'HuC firmware:'");
  return info;
}

}  // namespace mc::dra
