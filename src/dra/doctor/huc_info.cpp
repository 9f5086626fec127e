#include "dra/doctor/huc_info.h"

#include "common/base/text.h"

namespace mc::dra {

Result<HucInfo> ParseHucInfo(std::string_view text) {
  HucInfo info;
  bool seen_header = false;
  bool seen_status = false;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = Trim(text.substr(0, end), kLinePadding);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    constexpr std::string_view kHeader = "HuC firmware:";
    constexpr std::string_view kStatus = "status:";
    if (!seen_header && line.starts_with(kHeader)) {
      info.firmware = PrintableLine(Trim(line.substr(kHeader.size()), kLinePadding));
      seen_header = true;
    } else if (seen_header && !seen_status && line.starts_with(kStatus)) {
      info.status = PrintableLine(Trim(line.substr(kStatus.size()), kLinePadding));
      seen_status = true;
    }
  }
  if (!seen_header) return InvalidInput("huc_info: no line 'HuC firmware: ...'");
  if (!seen_status || info.status.empty())
    return InvalidInput("huc_info: no 'status: ...' line after 'HuC firmware:'");
  return info;
}

}  // namespace mc::dra
