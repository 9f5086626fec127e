#include "common/peertube/runner_registration.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"

namespace mc::peertube {

std::vector<std::pair<std::string, std::string>> RegisterRunnerForm(std::string registration_token,
                                                                    std::string name,
                                                                    std::string description) {
  return {{"registrationToken", std::move(registration_token)},
          {"name", std::move(name)},
          {"description", std::move(description)}};
}

Result<RunnerRegistration> ParseRegisterRunnerResult(std::string_view json) {
  const nlohmann::json body = ParseJsonOrDiscarded(json);
  JsonReader reader;
  RunnerRegistration runner;
  const nlohmann::json* id = nullptr;
  const nlohmann::json* token = nullptr;
  if (body.is_discarded() || !reader.Object(body, "") || !(id = reader.Member(body, "", "id")) ||
      !reader.Int(*id, "id", 0, INT64_MAX, runner.id) ||
      !(token = reader.Member(body, "", "runnerToken")) ||
      !reader.String(*token, "runnerToken", runner.runner_token))
    return InvalidInput("PeerTube's answer to the registration: " + (reader.error_message().empty()
                                                                         ? std::string("not JSON")
                                                                         : reader.error_message()));
  return runner;
}

}  // namespace mc::peertube
