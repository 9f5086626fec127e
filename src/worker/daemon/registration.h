// Registers the runner with PeerTube, once. `worker register` posts the registration token to the
// server's runner API. It keeps the runner's own token in the state directory (runner_config.h).
// Registering again with the same server and name does nothing.
#pragma once

#include <string>

#include "common/base/result.h"
#include "worker/daemon/runner_config.h"

namespace mc::worker {

struct RegisterRequest {
  std::string server_url;
  // The registration token ("ptrrt-…"), read from a file by the caller. Never a flag.
  std::string registration_token;
  std::string runner_name;
  std::string description;
};

// Where a registration token comes from, for every message about a missing or refused one.
inline constexpr const char* kMakeRegistrationToken =
    "make a registration token in PeerTube (Administration > Runners > Remote runners > Runner "
    "registration tokens, shown once remote runners are on for VOD transcoding: "
    "docs/worker/peertube-side.md), write it alone in the token file and register again";

// RegisterRunner asks the server for a runner token. A refusal names the server's status, its
// message and what to do. The tokens appear in no message.
Result<Registration> RegisterRunner(const RegisterRequest& request);

// ReadTokenFile reads a token from a file: its first line, trimmed. An empty file is an error
// naming the file.
Result<std::string> ReadTokenFile(const std::string& path);

}  // namespace mc::worker
