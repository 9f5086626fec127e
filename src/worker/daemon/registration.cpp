#include "worker/daemon/registration.h"

#include <nlohmann/json.hpp>

#include "common/base/json_reader.h"
#include "common/base/read_file.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/url.h"

namespace mc::worker {

Result<Registration> RegisterRunner(const RegisterRequest& request) {
  std::string base = request.server_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  Result<http::Url> url = http::ParseUrl(base + "/api/v1/runners/register");
  if (!url) return InvalidInput("--url: " + url.error());
  Result<http::ClientResponse> answer =
      http::Request(*url, http::FormRequest({{"registrationToken", request.registration_token},
                                             {"name", request.runner_name},
                                             {"description", request.description}}));
  if (!answer) return answer.failure();
  if (answer->status != 200) {
    const std::string message = "PeerTube refused the registration (" +
                                std::to_string(answer->status) + "): " + Excerpt(answer->body, 300);
    return answer->status == 400 || answer->status == 403 ? PermissionDenied(message)
                                                          : Unavailable(message);
  }
  const nlohmann::json body = nlohmann::json::parse(answer->body, nullptr, false);
  JsonReader reader;
  Registration registration{.server_url = base, .runner_name = request.runner_name};
  const nlohmann::json* id = nullptr;
  const nlohmann::json* token = nullptr;
  if (body.is_discarded() || !reader.Object(body, "") || !(id = reader.Member(body, "", "id")) ||
      !reader.Int(*id, "id", 0, INT64_MAX, registration.runner_id) ||
      !(token = reader.Member(body, "", "runnerToken")) ||
      !reader.String(*token, "runnerToken", registration.runner_token))
    return InvalidInput("PeerTube's answer to the registration: " +
                        (reader.error().empty() ? std::string("not JSON") : reader.error()));
  return registration;
}

Result<std::string> ReadTokenFile(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.failure();
  std::string token = text->substr(0, text->find('\n'));
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  while (!token.empty() && token.front() == ' ') token.erase(0, 1);
  if (token.empty()) return InvalidInput(path + " holds no token");
  return token;
}

}  // namespace mc::worker
