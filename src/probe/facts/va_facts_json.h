// The JSON form of VaFacts, the report the query child prints on stdout. The parent
// reads it back with ParseVaFacts, which treats the text as outside input: a child that
// was confused by its driver may print anything.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "probe/facts/va_facts.h"

namespace mc::probe {

std::string VaFactsToJson(const VaFacts& facts);

// ParseVaFacts names the first thing that is wrong, with its place in the document, for
// example "configs[2].entrypoint: expected an integer".
Result<VaFacts> ParseVaFacts(std::string_view json);

}  // namespace mc::probe
