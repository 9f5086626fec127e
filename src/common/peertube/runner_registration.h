// A runner's registration with PeerTube (`POST /api/v1/runners/register`). It holds the form sent
// and the answer read, as data. The tokens travel in these alone. No message names them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/result.h"

namespace mc::peertube {

// RegisterRunnerForm holds the register body's fields (RegisterRunnerBody). These are the
// registration token, the runner's name and its description.
std::vector<std::pair<std::string, std::string>> RegisterRunnerForm(std::string registration_token,
                                                                    std::string name,
                                                                    std::string description);

struct RunnerRegistration {
  std::int64_t id = 0;
  std::string runner_token;
};

// ParseRegisterRunnerResult reads the answer: {"id", "runnerToken"}. A wrong shape is invalid input
// naming its place. The error never names the token.
Result<RunnerRegistration> ParseRegisterRunnerResult(std::string_view json);

}  // namespace mc::peertube
