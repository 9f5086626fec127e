// PeerTube's queue as the pool manager reads it once a poll:
//  - the pending runner jobs, through the admin session;
//  - those of the configured types as demand, the others apart;
//  - each job's video, from the session's cache or read once;
//  - the queue signal built from both.
// It logs when the session had to log in again with a new password grant.
// That follows a token PeerTube no longer knows, or a restarted server with a new database.
// An operator reading a fault wants to know the manager has a fresh session.
// Knowing only that the reads work again is not enough.
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

  // Read is one read of the queue at `now_s` (seconds since the epoch).
  // A video whose facts cannot be read is logged; its jobs take the default shape.
  // The list itself failing fails the read.
  Result<pool::QueueSignal> Read(double now_s);

 private:
  peertube::AdminSession& session_;
  std::vector<std::string> job_types_;
  Logger log_;
  std::uint64_t grants_said_ = 0;
};

}  // namespace mc::pool
