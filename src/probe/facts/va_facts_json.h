// The JSON form of VaFacts: the report the query child prints on stdout. The parent reads it back
// with ParseVaFacts, as outside input. A child confused by its driver may print anything.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "probe/facts/va_facts.h"

namespace mc::probe {

std::string VaFactsToJson(const VaFacts& facts);

// ParseVaFacts names the first thing wrong, with its place in the document. Example:
// "configs[2].entrypoint: expected an integer".
Result<VaFacts> ParseVaFacts(std::string_view json);

}  // namespace mc::probe
