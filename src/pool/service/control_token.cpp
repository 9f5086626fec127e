#include "pool/service/control_token.h"

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "common/http/hmac.h"

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

Result<std::string> DeriveControlToken(std::string_view key, std::string_view worker_name) {
  if (key.empty()) return InvalidInput("the control key is empty");
  if (worker_name.empty()) return InvalidInput("no worker name to derive a control token for");
  return http::HmacSha256Hex(key, worker_name);
}

Result<std::string> ControlTokenOf(const std::string& token_file, const std::string& key_file,
                                   std::string_view worker_name) {
  if (key_file.empty()) return ReadControlToken(token_file);
  Result<std::string> key = ReadControlToken(key_file);
  if (!key) return Error{"the control key: " + key.error(), key.error_code()};
  return DeriveControlToken(*key, worker_name);
}

}  // namespace mc::pool
