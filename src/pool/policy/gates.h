// Which workers count as capacity for which pending jobs.
// Hard gates are what a worker cannot do on its GPU.
// Examples: an AV1 source without AV1 decode, a height above its maximum.
// Soft gates are the class thresholds of docs/pool/design.md.
// A worker failing a soft gate may still take the job; the manager does not count on it.
// One failing a hard gate is kept from it by the job list its gate is sent.
// See pool/service/job_list.h.
#pragma once

#include <string>

#include "pool/policy/config.h"
#include "pool/policy/job_class.h"
#include "pool/policy/signals.h"

namespace mc::pool {

// What a pending job needs, reduced to what the gates look at.
struct JobNeed {
  JobClass job_class = JobClass::kS;
  bool av1_source = false;
  bool av1_output = false;
  int height = 1080;

  bool operator==(const JobNeed&) const = default;
};

JobNeed NeedOf(const JobShape& shape, const GateConfig& gates);

bool PassesHardGates(const JobNeed& need, const Capabilities& capabilities);
inline bool PassesHardGates(const JobNeed& need, const WorkerStatus& worker) {
  return PassesHardGates(need, worker.capabilities);
}

// PassesGates is both the hard gates and the class's soft gates; `weight` is the worker's
// learned ŵ for the class.
bool PassesGates(const JobNeed& need, const WorkerStatus& worker, double weight,
                 const GateConfig& gates);

// The gates of a need, in words, for the reasons: "realtime factor >= 3, download >= 50 Mb/s, ..."
std::string GateWords(const JobNeed& need, const GateConfig& gates);

}  // namespace mc::pool
