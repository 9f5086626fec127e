// A runner's registration with PeerTube (`POST /api/v1/runners/register`): the form it sends
// and the answer it reads, as data. The tokens travel in these alone; no message names them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/result.h"

namespace mc::peertube {

// RegisterRunnerForm is the register body's fields (RegisterRunnerBody): the registration
// token, the runner's name and its description.
std::vector<std::pair<std::string, std::string>> RegisterRunnerForm(std::string registration_token,
                                                                    std::string name,
                                                                    std::string description);

struct RunnerRegistration {
  std::int64_t id = 0;
  std::string runner_token;
};

// ParseRegisterRunnerResult reads the answer ({"id", "runnerToken"}); a wrong shape is invalid
// input naming its place, never the token.
Result<RunnerRegistration> ParseRegisterRunnerResult(std::string_view json);

}  // namespace mc::peertube
