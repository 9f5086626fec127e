#include "pool/service/control_token.h"

#include "common/base/read_file.h"
#include "common/base/text.h"

namespace mc::pool {

Result<std::string> ReadControlToken(const std::string& path) {
  if (path.empty()) return InvalidInput("no control token file is configured");
  Result<std::string> text = ReadFileText(path);
  if (!text) return Error{"the control token file " + text.error(), text.error_code()};
  const std::string_view first_line = std::string_view(*text).substr(0, text->find('\n'));
  const std::string_view token = Trim(first_line);
  if (token.empty())
    return InvalidInput("the control token file " + path + " holds no token on its first line");
  return std::string(token);
}

}  // namespace mc::pool
