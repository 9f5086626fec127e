// `media-capabilities worker serve`: the status server (src/worker/status/status_server.h) until
// SIGTERM or SIGINT.
#pragma once

#include <string>

#include "worker/status/status_gather.h"

namespace mc {

// RunServe serves /status and /metrics on `listen` and returns the exit status: 0 after a
// signal stopped it, 1 when it could not listen.
int RunServe(const worker::GatherOptions& gather, const std::string& listen);

}  // namespace mc
