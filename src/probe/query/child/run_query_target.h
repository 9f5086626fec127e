// The child's side of one query. A forked query child runs it in its own process. So do the
// internal subcommands `query-va` and `query-nvidia`.
#pragma once

#include "probe/query/query_target.h"

namespace mc::probe {

// RunQueryTarget asks the target's driver and prints the JSON report on stdout. It returns the
// child's exit status:
// - 0 after the report;
// - 1 after the error on stderr.
int RunQueryTarget(const QueryTarget& target);

}  // namespace mc::probe
