#include "probe/query/child_failure.h"

#include <string.h>

#include <cstdio>

#include "common/base/text.h"

namespace mc::probe {
namespace {

std::string SecondsText(std::chrono::milliseconds duration) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g s", static_cast<double>(duration.count()) / 1000.0);
  return buffer;
}

}  // namespace

std::optional<std::string> DescribeChildFailure(const ChildOutcome& outcome,
                                                std::chrono::milliseconds deadline) {
  const std::string err = JoinLines(outcome.err);
  const std::string said = err.empty() ? std::string() : ": " + err;
  switch (outcome.kind) {
    case ChildOutcome::Kind::kExited:
      if (outcome.code == 0) return std::nullopt;
      if (!err.empty()) return err;
      return "the query exited with status " + std::to_string(outcome.code) + " and wrote no error";
    case ChildOutcome::Kind::kSignalled:
      return "the query was killed by signal " + std::to_string(outcome.code) + " (" +
             sigdescr_np(outcome.code) + ")" + said;
    case ChildOutcome::Kind::kTimedOut:
      return "the query ran past its deadline of " + SecondsText(deadline) + " and was killed" +
             said;
    case ChildOutcome::Kind::kNotStarted:
      return std::string("the query could not start: ") + strerror(outcome.code);
  }
  return "the query failed";
}

}  // namespace mc::probe
