#include "pool/service/dry_run_channel.h"

namespace mc::pool {

DryRunChannel::DryRunChannel(const ControlChannel& inner, Logger log)
    : inner_(inner), log_(std::move(log)) {}

Result<void> DryRunChannel::Apply(const pool::Action& action, const WorkerEndpoint& worker) {
  log_("dry run: would " + std::string(pool::ActionKindName(action.kind)) + " " + worker.name +
       ": " + inner_.Describe(action, worker));
  return Ok();
}

std::string DryRunChannel::Describe(const pool::Action& action,
                                    const WorkerEndpoint& worker) const {
  return "dry run: " + inner_.Describe(action, worker);
}

}  // namespace mc::pool
