#include "pool/service/control_token.h"

#include "common/base/read_file.h"

namespace mc::pool_service {

Result<std::string> ReadControlToken(const std::string& path) {
  if (path.empty()) return InvalidInput("no control token file is configured");
  Result<std::string> text = ReadFileText(path);
  if (!text) return Error{"the control token file " + text.error(), text.error_code()};
  std::string_view line = *text;
  line = line.substr(0, line.find('\n'));
  constexpr std::string_view kSpace = " \t\r\f\v";
  const std::size_t first = line.find_first_not_of(kSpace);
  if (first == std::string_view::npos)
    return InvalidInput("the control token file " + path + " holds no token on its first line");
  const std::size_t last = line.find_last_not_of(kSpace);
  return std::string(line.substr(first, last - first + 1));
}

}  // namespace mc::pool_service
