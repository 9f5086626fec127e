// What the simulator needs to play a recorded run again, taken from the record itself: the
// jobs as they arrived with their shapes and the time each one really ran, the workers with
// their capacities and how soon an enabled one really took jobs, the spells in which a worker
// could not be read or its GPU was gone, and the run's own policy and cycle.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/simulator.h"
#include "pool/service/run_record.h"

namespace mc::pool {

struct ReplayInputs {
  pool::Trace trace;
  std::vector<pool::SimWorkerSpec> workers;
  pool::SimOptions options;
  double start_s = 0;  // the first cycle's time, seconds since the epoch: the simulation's 0
  // What the derivation could not carry into the simulator, in words (a second fault of one
  // worker, say), for the report.
  std::vector<std::string> notes;
};

Result<ReplayInputs> DeriveInputs(const pool::RunRecord& record);

}  // namespace mc::pool
