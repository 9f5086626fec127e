#include "pool/service/peertube_queue.h"

#include <optional>

#include "pool/service/queue_signal.h"

namespace mc::pool {

Result<pool::QueueSignal> PeerTubeQueue::Read(double now_s) {
  Result<std::vector<peertube::PendingJob>> jobs = session_.PendingRunnerJobs(job_types_);
  if (session_.password_grants() != grants_said_) {
    // The first login is the start's; a later one follows a token PeerTube refused.
    log_(std::string("pool: logged in to PeerTube") +
         (grants_said_ == 0
              ? ""
              : " again (password grant " + std::to_string(session_.password_grants()) + ")"));
    grants_said_ = session_.password_grants();
  }
  if (!jobs) return jobs.failure();
  return QueueFromJobs(
      *jobs,
      [&](const std::string& uuid) -> std::optional<peertube::VideoFacts> {
        Result<peertube::VideoFacts> facts = session_.Video(uuid);
        if (!facts) {
          log_("pool: video " + uuid +
               " could not be read (its jobs take default shapes): " + facts.error());
          return std::nullopt;
        }
        return *facts;
      },
      now_s);
}

}  // namespace mc::pool
