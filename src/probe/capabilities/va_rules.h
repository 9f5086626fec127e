// The VA-API column of the capability table, applied. It maps what a driver stated to every
// capability's value. Pure: it reads facts and nothing else.
#pragma once

#include "probe/capabilities/capability_table.h"
#include "probe/facts/va_facts.h"

namespace mc::probe {

bool VaRuleHolds(const VaRule& rule, const VaFacts& facts);

CapabilityValues EvaluateVaFacts(const VaFacts& facts);

}  // namespace mc::probe
