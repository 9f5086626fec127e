#include "worker/daemon/registration.h"

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/url.h"
#include "common/peertube/runner_registration.h"

namespace mc::worker {

Result<Registration> RegisterRunner(const RegisterRequest& request) {
  const std::string base = http::UnderBase(request.server_url, "");
  Result<http::Url> url = http::ParseUrl(base + "/api/v1/runners/register");
  if (!url) return InvalidInput("--url: " + url.error_message());
  Result<http::ClientResponse> answer = http::Request(
      *url, http::FormRequest(peertube::RegisterRunnerForm(
                request.registration_token, request.runner_name, request.description)));
  if (!answer) return answer.error();
  if (answer->status != 200) {
    const std::string message = "PeerTube refused the registration (" +
                                std::to_string(answer->status) + "): " + Excerpt(answer->body, 300);
    return answer->status == 400 || answer->status == 403 ? PermissionDenied(message)
                                                          : Unavailable(message);
  }
  Result<peertube::RunnerRegistration> registered =
      peertube::ParseRegisterRunnerResult(answer->body);
  if (!registered) return registered.error();
  return Registration{.server_url = base,
                      .runner_name = request.runner_name,
                      .runner_id = registered->id,
                      .runner_token = std::move(registered->runner_token)};
}

Result<std::string> ReadTokenFile(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.error();
  std::string token = text->substr(0, text->find('\n'));
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  while (!token.empty() && token.front() == ' ') token.erase(0, 1);
  if (token.empty()) return InvalidInput(path + " holds no token");
  return token;
}

}  // namespace mc::worker
