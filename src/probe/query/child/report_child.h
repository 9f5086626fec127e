// The shape every internal query child shares: drivers and their libraries may print on
// stdout, so the child keeps the original stdout for its one report and points everything
// else written to stdout at stderr, where the parent reads it as diagnostics.
#pragma once

#include <functional>
#include <string>

#include "common/base/result.h"

namespace mc::probe {

// RunReportChild runs `query`, which gives the report's text or the error, and returns the
// child's exit status: 0 after writing the report, 1 after writing the error on stderr.
// `name` prefixes its own messages, such as "query-va".
int RunReportChild(const char* name, const std::function<Result<std::string>()>& query);

}  // namespace mc::probe
