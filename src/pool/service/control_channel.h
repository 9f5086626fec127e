// A control channel carries the policy's actions to the workers. It is one of:
//  - the workers' own control API;
//  - bare-metal commands;
//  - Kubernetes;
//  - a dry run that only says what it would do.
// The service holds one channel and never knows which.
// Each channel answers for every action kind.
// An action it cannot carry is an Unsupported error, not a silent no-op.
#pragma once

#include <string>

#include "common/base/result.h"
#include "pool/policy/decision.h"
#include "pool/service/worker_endpoint.h"

namespace mc::pool {

class ControlChannel {
 public:
  virtual ~ControlChannel() = default;

  // Apply carries `action` to `worker` and returns once it took effect or failed.
  // A failure names the worker, the action and what answered.
  // An example: "gpu-box-1:gpu0: drain: the control API answered 401".
  // The service logs it and keeps the action to retry on the next cycle.
  // It counts the worker as unreachable, so the policy sees it.
  // A token never appears in it.
  virtual Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) = 0;

  // Describe says in words what Apply would do, for the dry run and the log:
  // "POST http://10.0.0.5:9464/drain" or "run: systemctl start media-worker@0".
  virtual std::string Describe(const pool::Action& action, const WorkerEndpoint& worker) const = 0;
};

}  // namespace mc::pool
