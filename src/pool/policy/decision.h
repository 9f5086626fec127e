// What one cycle of the policy decides: the next state, the actions for the control
// channel, and the reasons a person would ask for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pool/policy/job_class.h"
#include "pool/policy/pool_state.h"
#include "pool/policy/reasons.h"

namespace mc::pool {

enum class ActionKind {
  kEnable,      // admission AVAILABLE at `concurrency` (starting the service if it is down)
  kDrain,       // admission DRAINING: in-flight jobs finish, no new ones start
  kSetClasses,  // the job classes the worker's gate accepts from now on
  kProbe,       // run the probe now
  kWake,        // send the Wake-on-LAN packet
  kSuspend,     // suspend the box; only ever asked of one with no job
};

std::string_view ActionKindName(ActionKind kind);

struct Action {
  ActionKind kind;
  std::string worker;
  int concurrency = 0;              // kEnable
  ClassMask classes = kEveryClass;  // kSetClasses
  // kSetClasses: the pending jobs the worker may take, by runner job UUID.
  // Used where its classes and hard gates cannot be said as a bound on the output.
  // See pool/service/job_list.h. The service sets it, never the policy.
  std::optional<std::vector<std::string>> jobs;
  ReasonCode reason;
};

struct Decision {
  PoolState state;
  std::vector<Action> actions;
  std::vector<Reason> reasons;
  double pressure = 0;  // P of this cycle
  int capacity_slots = 0;
  int demand = 0;  // pending jobs counted as demand
};

}  // namespace mc::pool
