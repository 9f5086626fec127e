// The shape every internal query child shares. Drivers and their libraries may print on stdout. So
// the child keeps the original stdout for its one report. Everything else written to stdout goes to
// stderr. The parent reads it there as diagnostics.
#pragma once

#include <functional>
#include <string>

#include "common/base/result.h"

namespace mc::probe {

// RunReportChild runs `query`, which gives the report's text or the error. It returns the child's
// exit status:
// - 0 after writing the report;
// - 1 after writing the error on stderr.
//
// `name` prefixes its own messages, such as "query-va".
int RunReportChild(const char* name, const std::function<Result<std::string>()>& query);

}  // namespace mc::probe
