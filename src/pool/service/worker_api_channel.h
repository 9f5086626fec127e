// WorkerApiChannel carries the policy's actions over the workers' own control API.
// See docs/worker.md, "Control: drain, enable, concurrency, eligibility".
// It posts to /drain, /enable, /concurrency and /eligibility beside the worker's /status.
// Each request carries the worker's bearer token, read from its file at each use.
//
//  - enable: POST /concurrency N, then POST /enable.
//    The worker takes its next job at the new concurrency, never the old one.
//  - drain: POST /drain.
//  - set-classes: POST /eligibility with EligibilityText (eligibility_text.h).
//    Or with "jobs=UUID,..." where the action lists the jobs (job_list.h).
//  - probe: Unsupported, since the control API has no probe action.
//    The worker probes on its own schedule.
//    It probes again before an enable when its last probe is over five minutes old.
//    So the pool sees a fresh verdict in the worker's next /status.
//  - wake: Unsupported, since the worker API cannot wake or suspend a box.
//  - suspend: Unsupported, likewise.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "pool/policy/job_class.h"
#include "pool/service/control_channel.h"

namespace mc::pool {

struct WorkerApiOptions {
  // From connecting until the whole answer of one request; an enable makes two.
  std::chrono::milliseconds request_deadline{10000};
  // Where the class boundaries lie, for set-classes.
  pool::ClassBounds bounds;
};

class WorkerApiChannel : public ControlChannel {
 public:
  explicit WorkerApiChannel(WorkerApiOptions options = {}) : options_(std::move(options)) {}

  Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) override;
  std::string Describe(const pool::Action& action, const WorkerEndpoint& worker) const override;

  // Answers is whether anything answers GET /status within `timeout`, whatever the status.
  // A worker still in its first gathering answers 503, and already serves its control API.
  // An error is the reason nothing answered:
  //  - Unavailable when the connection was refused or broken;
  //  - DeadlineExceeded when it timed out.
  Result<void> Answers(const WorkerEndpoint& worker, std::chrono::milliseconds timeout) const;

 private:
  Result<std::string> GateEligibility(const pool::Action& action) const;
  // Post sends `body` to `path` of the worker's control API with its token; `what` names
  // the action in an error.
  Result<void> Post(const WorkerEndpoint& worker, std::string_view what, std::string_view path,
                    std::string body) const;

  WorkerApiOptions options_;
};

}  // namespace mc::pool
