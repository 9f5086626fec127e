#include "pool/service/control_token.h"

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "common/http/hmac.h"

namespace mc::pool {

namespace {

// FirstLine reads the secret on the first line of `path`, which `what` names in an error.
Result<std::string> FirstLine(const std::string& path, const std::string& what) {
  if (path.empty()) return InvalidInput("no " + what + " is configured");
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.error().WithContext("the " + what);
  const std::string_view first_line = std::string_view(*text).substr(0, text->find('\n'));
  const std::string_view secret = Trim(first_line);
  if (secret.empty())
    return InvalidInput("the " + what + " " + path + " holds nothing on its first line");
  return std::string(secret);
}

}  // namespace

Result<std::string> ReadControlToken(const std::string& path) {
  return FirstLine(path, "control token file");
}

Result<std::string> DeriveControlToken(std::string_view key, std::string_view worker_name) {
  if (key.empty()) return InvalidInput("the control key is empty");
  if (worker_name.empty()) return InvalidInput("no worker name to derive a control token for");
  return http::HmacSha256Hex(key, worker_name);
}

Result<std::string> ControlTokenOf(const std::string& token_file, const std::string& key_file,
                                   std::string_view worker_name) {
  if (key_file.empty()) return ReadControlToken(token_file);
  Result<std::string> key = FirstLine(key_file, "control key file");
  if (!key) return key.error();
  return DeriveControlToken(*key, worker_name);
}

}  // namespace mc::pool
