// `media-capabilities pool run --config POOL.yaml`: the pool manager as a service. Its file
// (src/pool/service/service_config.h) wires:
//  - PeerTube's admin session;
//  - the workers (listed, or the StatefulSet's pods);
//  - the control channel of the mode;
//  - the HTTP report;
//  - the cycles.
// `pool status` asks a running manager for its report.
#pragma once

#include <string>

namespace mc {

// RunPool runs until SIGTERM or SIGINT, and then gives 0. It gives 1 when it could not start.
// The message says why: the file, a credentials file, the listen address, the Kubernetes
// module.
int RunPool(const std::string& config_file, const std::string& record_file = "");

// RunPoolStatus prints the report of the manager at `url` (http://127.0.0.1:9460) as a table
// or, with `json`, as the manager wrote it.
int RunPoolStatus(const std::string& url, bool json);

}  // namespace mc
