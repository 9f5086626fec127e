#include "pool/service/queue_signal.h"

#include <algorithm>
#include <cmath>

namespace mc::pool {

pool::QueueSignal QueueFromJobs(const std::vector<peertube::PendingJob>& jobs,
                                const VideoLookup& video, double now_s) {
  pool::QueueSignal queue;
  queue.pending.reserve(jobs.size());
  for (const peertube::PendingJob& job : jobs) {
    pool::PendingJob pending;
    pending.id = job.uuid;
    pending.type = job.type;
    pending.priority = job.priority;
    pending.age = pool::Seconds(std::max(0.0, now_s - job.waiting_since_s));
    const std::optional<peertube::VideoFacts> facts =
        job.video_uuid.empty() ? std::nullopt : video(job.video_uuid);
    pool::JobShape& shape = pending.shape;
    if (facts) {
      shape.source_resolution = facts->height;
      if (facts->duration_s > 0) shape.duration = pool::Seconds(facts->duration_s);
      shape.av1_source = facts->codec == "av1";
    }
    // An audio merge and the highest rendition state their output.
    // A job that does not is taken at its source's size, the most it can be.
    shape.resolution =
        job.resolution.value_or(facts && facts->height > 0 ? facts->height : shape.resolution);
    const double fps = job.fps.value_or(facts && facts->fps > 0 ? facts->fps : shape.fps);
    shape.fps = static_cast<int>(std::lround(fps));
    queue.pending.push_back(std::move(pending));
  }
  return queue;
}

}  // namespace mc::pool
