#include "worker/daemon/registration.h"

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/url.h"
#include "common/peertube/api_answer.h"
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
    const std::string said = peertube::ProblemText(answer->body);
    const std::string message = "PeerTube refused the registration (HTTP " +
                                std::to_string(answer->status) + (said.empty() ? "" : ": " + said) +
                                ")";
    // PeerTube answers 404 to a token it does not know, 400 to one it cannot read.
    if (answer->status >= 400 && answer->status < 500)
      return PermissionDenied(message + "; " + std::string(kMakeRegistrationToken));
    return Unavailable(message +
                       "; PeerTube could not register the runner now: try again later, and read "
                       "PeerTube's log if it goes on");
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
