// PeerTube's queue as the pool manager reads it once a poll: the pending runner jobs through
// the admin session, those of the configured types as demand and the others apart, each job's video
// from the session's cache (or read once), and the queue signal built from both. It also says in
// the log when the session had to log in again (a new password grant: a token PeerTube no longer
// knows, a restarted server with a new database), since an operator reading a fault wants to know
// that the manager came back with a fresh session and not only that the reads work again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "common/peertube/admin_session.h"
#include "pool/policy/signals.h"
#include "pool/service/logger.h"

namespace mc::pool {

class PeerTubeQueue {
 public:
  PeerTubeQueue(peertube::AdminSession& session, std::vector<std::string> job_types, Logger log)
      : session_(session), job_types_(std::move(job_types)), log_(std::move(log)) {}

  // Read is one read of the queue at `now_s` (seconds since the epoch). A video whose facts
  // cannot be read is said in the log and its jobs take the default shape; the list itself
  // failing fails the read.
  Result<pool::QueueSignal> Read(double now_s);

 private:
  peertube::AdminSession& session_;
  std::vector<std::string> job_types_;
  Logger log_;
  std::uint64_t grants_said_ = 0;
};

}  // namespace mc::pool
