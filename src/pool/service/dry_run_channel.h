// DryRunChannel is the dry run. It logs what the channel it wraps would do, and does none.
// Every action succeeds.
// So the service runs its policy on real signals exactly as with the real channel.
// And the log shows every step.
#pragma once

#include <string>

#include "pool/service/control_channel.h"
#include "pool/service/logger.h"

namespace mc::pool {

class DryRunChannel : public ControlChannel {
 public:
  // `inner` is asked only to Describe, never to Apply; it must outlive the dry run.
  DryRunChannel(const ControlChannel& inner, Logger log);

  // Apply logs "dry run: would ACTION WORKER: DESCRIPTION" and returns Ok.
  Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) override;
  std::string Describe(const pool::Action& action, const WorkerEndpoint& worker) const override;

 private:
  const ControlChannel& inner_;
  Logger log_;
};

}  // namespace mc::pool
