// The baselines as the simulator drives them: one interface, implemented in baselines.cpp for
// the HPA-like, KEDA-like, ARC-like and static pools and for the clairvoyant limit. Each sizes
// the fleet through SimFleet; the simulator steps time, hands out jobs and measures.
#pragma once

#include <memory>

#include "pool/simulator/sim_fleet.h"
#include "pool/simulator/simulator.h"

namespace mc::pool {

class BaselineScaler {
 public:
  virtual ~BaselineScaler() = default;

  // Sets the fleet up as the baseline starts. Returns how many workers admit jobs from the
  // start, those the workers file states ACTIVE included.
  virtual int Start() = 0;
  // A worker that admits jobs from the start; the ARC-like baseline makes it a runner.
  virtual void AdoptStartingWorker(SimWorker& /*worker*/) {}
  // Each step, before the cycle's reading: ARC's listener and the limit react at once.
  virtual void Step(double /*t*/) {}
  // Each step, after the cycle's reading: the HPA and KEDA act when their period is due.
  virtual void Poll(double /*t*/) {}

  // Whether the pool pays for `worker` now: its hours count, and the plot counts it on.
  virtual bool Holds(const SimWorker& worker) const { return worker.IsInService(); }
  // Whether `worker`, up, admitting and not faulted, may take one more job.
  virtual bool HasFreeSlot(const SimWorker& worker) const { return worker.HasRoom(); }
  // A job started on `worker`, or left it done or failed.
  virtual void JobStarted(SimWorker& /*worker*/) {}
  virtual void JobFinished(SimWorker& /*worker*/) {}
};

// The baseline that `options.policy` names, acting on `fleet`; null for ours.
std::unique_ptr<BaselineScaler> MakeBaselineScaler(const SimOptions& options, SimFleet& fleet);

}  // namespace mc::pool
