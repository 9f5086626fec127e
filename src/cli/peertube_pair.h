// What `worker run` and `worker doctor` read of the PeerTube beside a worker:
//  - the server's version (`GET /api/v1/config`);
//  - the official runner's (its `--version`);
//  - what is known of the pair (common/peertube/peertube_versions.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/peertube/peertube_versions.h"
#include "worker/status/status_document.h"

namespace mc {

struct PeerTubePair {
  std::optional<peertube::Version> server;
  std::string server_error;  // why it could not be read
  std::optional<peertube::Version> runner;
  std::string runner_error;
  // False when the runner did not start or failed: a worker cannot work with it.
  bool runner_runs = true;
  peertube::SupportVerdict verdict;

  worker::PeerTubeVersions ForStatus() const;
  // Text is the pair for a person, a line each: the server, the runner, the verdict.
  std::string Text(const std::string& server_url, const std::string& runner_command) const;
};

// ReadPeerTubePair asks the server at `server_url` and runs `runner_command` with --version,
// each with a deadline of 10 s.
PeerTubePair ReadPeerTubePair(const std::string& server_url,
                              const std::vector<std::string>& runner_command);

}  // namespace mc
