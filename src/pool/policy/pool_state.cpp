#include "pool/policy/pool_state.h"

#include "pool/policy/decision.h"

namespace mc::pool {

std::string_view ManagerStateName(ManagerState state) {
  switch (state) {
    case ManagerState::kCold:
      return "COLD";
    case ManagerState::kSpare:
      return "SPARE";
    case ManagerState::kWarm:
      return "WARM";
    case ManagerState::kActive:
      return "ACTIVE";
    case ManagerState::kDraining:
      return "DRAINING";
    case ManagerState::kCooldown:
      return "COOLDOWN";
  }
  return "?";
}

std::string_view ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kEnable:
      return "enable";
    case ActionKind::kDrain:
      return "drain";
    case ActionKind::kSetClasses:
      return "set-classes";
    case ActionKind::kProbe:
      return "probe";
    case ActionKind::kWake:
      return "wake";
    case ActionKind::kSuspend:
      return "suspend";
  }
  return "?";
}

}  // namespace mc::pool
