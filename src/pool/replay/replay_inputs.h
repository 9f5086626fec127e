// What the simulator needs to play a recorded run again, taken from the record itself:
//  - the jobs as they arrived, with their shapes and the time each really ran;
//  - the workers, with their capacities and how soon an enabled one took jobs;
//  - the intervals in which a worker could not be read or its GPU was gone;
//  - the run's own policy and cycle.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/service/run_record.h"
#include "pool/simulator/simulator.h"

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
