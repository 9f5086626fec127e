// The strict replay feeds the recorded cycles to the policy alone.
// It starts from the state the service starts with.
// It must give exactly the recorded actions and reasons, cycle by cycle.
// It holds when the service is the policy and nothing else:
//  - no decision made or changed outside pool::Decide;
//  - no input the record leaves out.
#pragma once

#include <string>

#include "common/base/result.h"
#include "pool/policy/config.h"
#include "pool/service/run_record.h"

namespace mc::pool {

struct StrictResult {
  int cycles = 0;
  int actions = 0;
  int reasons = 0;
  bool agrees = true;
  std::string first_disagreement;  // names the cycle, its time and what differs
};

// The policy is the record's unless `policy` is given. An error: a cycle's signals could not
// be had again (a document the reader no longer takes).
Result<StrictResult> StrictReplay(const pool::RunRecord& record, const pool::PoolConfig& policy);

std::string StrictTable(const StrictResult& result);

}  // namespace mc::pool
