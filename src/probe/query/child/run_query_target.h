// The child's side of one query: what a forked query child, or the internal subcommand
// `query-va` / `query-nvidia`, runs in its own process.
#pragma once

#include "probe/query/query_target.h"

namespace mc::probe {

// RunQueryTarget asks the target's driver, prints the JSON report on stdout, and returns the
// child's exit status: 0 after the report, 1 after the error on stderr.
int RunQueryTarget(const QueryTarget& target);

}  // namespace mc::probe
