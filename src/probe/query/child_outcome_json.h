// The JSON form of child outcomes. The query batch hands its children's outcomes to the parent in
// it. The parent treats it as outside input. The `out` and `err` texts inside are whatever the
// drivers printed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "probe/query/child_process.h"

namespace mc::probe {

std::string OutcomesToJson(const std::vector<ChildOutcome>& outcomes);
Result<std::vector<ChildOutcome>> ParseOutcomes(std::string_view json);

}  // namespace mc::probe
