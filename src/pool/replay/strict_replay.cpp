#include "pool/replay/strict_replay.h"

#include <cstdio>

#include "pool/policy/policy.h"
#include "pool/policy/reasons.h"

namespace mc::pool {

namespace {

std::string ActionWords(const pool::Action& action) {
  std::string words = std::string(pool::ActionKindName(action.kind)) + " " + action.worker + " (" +
                      pool::ReasonRow(action.reason).id;
  if (action.kind == pool::ActionKind::kEnable) {
    words += ", concurrency " + std::to_string(action.concurrency);
  }
  if (action.kind == pool::ActionKind::kSetClasses) {
    words += ", classes " + std::to_string(action.classes);
  }
  return words + ")";
}

bool Same(const pool::Action& a, const pool::Action& b) {
  return a.kind == b.kind && a.worker == b.worker && a.reason == b.reason &&
         (a.kind != pool::ActionKind::kEnable || a.concurrency == b.concurrency) &&
         (a.kind != pool::ActionKind::kSetClasses || a.classes == b.classes);
}

// What differs between the recorded and the decided lists, or empty when nothing does.
template <typename T, typename SameFn, typename WordsFn>
std::string Differ(const char* what, const std::vector<T>& recorded, const std::vector<T>& decided,
                   SameFn same, WordsFn words) {
  for (std::size_t i = 0; i < std::max(recorded.size(), decided.size()); ++i) {
    if (i < recorded.size() && i < decided.size() && same(recorded[i], decided[i])) continue;
    return std::string(what) + " " + std::to_string(i + 1) + ": recorded " +
           (i < recorded.size() ? words(recorded[i]) : "none") + ", the policy decides " +
           (i < decided.size() ? words(decided[i]) : "none");
  }
  return "";
}

}  // namespace

Result<StrictResult> StrictReplay(const pool::RunRecord& record, const pool::PoolConfig& policy) {
  StrictResult result;
  pool::PoolState state;
  const double start = record.cycles.empty() ? 0 : record.cycles.front().t_s;
  for (const pool::CycleRecord& cycle : record.cycles) {
    Result<pool::Signals> signals = pool::SignalsOf(cycle);
    if (!signals) return signals.error();
    pool::Decision decision = pool::Decide(std::move(state), *signals, pool::At(cycle.t_s), policy);
    state = std::move(decision.state);
    ++result.cycles;
    result.actions += static_cast<int>(cycle.actions.size());
    result.reasons += static_cast<int>(cycle.reasons.size());
    if (!result.agrees) continue;
    std::string why = Differ("action", cycle.actions, decision.actions, Same, ActionWords);
    if (why.empty()) {
      why = Differ(
          "reason", cycle.reasons, decision.reasons,
          [](const pool::Reason& a, const pool::Reason& b) {
            return a.code == b.code && a.worker == b.worker && a.text == b.text;
          },
          [](const pool::Reason& r) { return "\"" + r.text + "\""; });
    }
    if (!why.empty()) {
      char at[64];
      // The header is the first line, so cycle n is line n + 1.
      std::snprintf(at, sizeof at, "cycle %d (line %d, %.1f s): ", result.cycles, result.cycles + 1,
                    cycle.t_s - start);
      result.agrees = false;
      result.first_disagreement = at + why;
    }
  }
  return result;
}

std::string StrictTable(const StrictResult& result) {
  const std::string counted = std::to_string(result.cycles) + " cycles, " +
                              std::to_string(result.actions) + " actions, " +
                              std::to_string(result.reasons) + " reasons";
  return result.agrees
             ? "strict: agree: the policy alone gives every recorded decision (" + counted + ")\n"
             : "strict: disagree: " + result.first_disagreement + " (of " + counted + ")\n";
}

}  // namespace mc::pool
