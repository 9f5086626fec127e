// Which pending jobs a worker may take, where a bound on the output cannot say it:
//  - open classes other than S and S+M (the session shift leaves L and XL alone);
//  - hard gates of a job its GPU cannot run (an AV1 source without AV1 decode).
// The list goes to the worker's gate, which then takes the listed transcodes alone.
// See docs/worker/gate.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/job_class.h"
#include "pool/policy/signals.h"

namespace mc::pool {

// The most jobs one list names, so POST /eligibility fits the control API's request limit.
// The list keeps the jobs PeerTube offers next: by its priority, then the oldest first.
inline constexpr std::size_t kMostListedJobs = 150;

// JobList gives the sorted UUIDs of the jobs in `pending` that `worker` may take.
// The worker's classes are `open`. It gives nullopt where the worker needs no list:
//  - its open classes can be said as a bound;
//  - its GPU decodes AV1;
//  - no pending job fails its hard gates.
// A GPU without AV1 decode always has a list.
// PeerTube offers a new upload to every runner at once, before the manager reads its codec.
std::optional<std::vector<std::string>> JobList(const WorkerStatus& worker, ClassMask open,
                                                const std::vector<PendingJob>& pending,
                                                const GateConfig& gates);

}  // namespace mc::pool
