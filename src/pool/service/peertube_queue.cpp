#include "pool/service/peertube_queue.h"

#include <algorithm>
#include <map>
#include <optional>

#include "pool/service/queue_signal.h"

namespace mc::pool {

Result<pool::QueueSignal> PeerTubeQueue::Read(double now_s) {
  // Every pending job, so that those of other types are seen too.
  Result<std::vector<peertube::PendingJob>> jobs = session_.PendingRunnerJobs({});
  if (session_.password_grants() != grants_said_) {
    // The first login is the start's; a later one follows a token PeerTube refused.
    log_(std::string("pool: logged in to PeerTube") +
         (grants_said_ == 0
              ? ""
              : " again (password grant " + std::to_string(session_.password_grants()) + ")"));
    grants_said_ = session_.password_grants();
  }
  if (!jobs) return jobs.error();
  std::vector<peertube::PendingJob> served;
  std::map<std::string, pool::OtherPending> not_served;
  for (peertube::PendingJob& job : *jobs) {
    if (std::find(job_types_.begin(), job_types_.end(), job.type) != job_types_.end()) {
      served.push_back(std::move(job));
      continue;
    }
    pool::OtherPending& other = not_served[job.type];
    ++other.count;
    other.oldest_age = std::max(other.oldest_age, pool::Seconds(now_s - job.waiting_since_s));
  }
  pool::QueueSignal queue = QueueFromJobs(
      served,
      [&](const std::string& uuid) -> std::optional<peertube::VideoFacts> {
        Result<peertube::VideoFacts> facts = session_.Video(uuid);
        if (!facts) {
          log_("pool: video " + uuid +
               " could not be read (its jobs take default shapes): " + facts.error_message());
          return std::nullopt;
        }
        return *facts;
      },
      now_s);
  queue.not_served = std::move(not_served);
  return queue;
}

}  // namespace mc::pool
