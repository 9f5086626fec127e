// The probe contract's JSON form and its table for people. `worker probe --output json` prints the
// JSON. It is also the `gpu` block of the status document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "worker/probe_contract/probe_contract.h"

namespace mc::worker {

// CapabilitiesJson gives the seven keys as 1 or 0, in the table's order.
nlohmann::ordered_json CapabilitiesJson(const CapabilityFlags& flags);

nlohmann::ordered_json ContractJson(const ProbeContract& contract);

std::string ContractTable(const ProbeContract& contract);

}  // namespace mc::worker
