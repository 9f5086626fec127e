#include "pool/signals.h"

#include <algorithm>

namespace mc::pool {

int QueueSignal::PendingOfType(const std::string& type) const {
  return static_cast<int>(std::count_if(pending.begin(), pending.end(),
                                        [&](const PendingJob& job) { return job.type == type; }));
}

Duration QueueSignal::OldestPendingAge() const {
  Duration oldest = Seconds(0);
  for (const PendingJob& job : pending) oldest = std::max(oldest, job.age);
  return oldest;
}

}  // namespace mc::pool
