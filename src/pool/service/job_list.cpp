#include "pool/service/job_list.h"

#include <algorithm>

#include "pool/policy/gates.h"
#include "pool/service/eligibility_text.h"

namespace mc::pool {

std::optional<std::vector<std::string>> JobList(const WorkerStatus& worker, ClassMask open,
                                                const std::vector<PendingJob>& pending,
                                                const GateConfig& gates) {
  bool restricted = !worker.capabilities.av1_dec || !EligibilityText(open, gates.bounds);
  std::vector<const PendingJob*> allowed;
  for (const PendingJob& job : pending) {
    const JobNeed need = NeedOf(job.shape, gates);
    if (!PassesHardGates(need, worker)) {
      restricted = true;
      continue;
    }
    if ((open & Bit(need.job_class)) != 0 && !job.id.empty()) allowed.push_back(&job);
  }
  if (!restricted) return std::nullopt;
  // PeerTube offers the lowest priority number first, and the oldest job among equals.
  std::stable_sort(allowed.begin(), allowed.end(), [](const PendingJob* a, const PendingJob* b) {
    const int pa = a->priority.value_or(0);
    const int pb = b->priority.value_or(0);
    return pa != pb ? pa < pb : a->age > b->age;
  });
  if (allowed.size() > kMostListedJobs) allowed.resize(kMostListedJobs);
  std::vector<std::string> ids;
  for (const PendingJob* job : allowed) ids.push_back(job->id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace mc::pool
