// The probe's report of the GPU a contract speaks for: what the driver stated of it (the
// NVIDIA facts, the published attributes), which the contract itself does not carry.
#pragma once

#include "pipeline/probe_pipeline.h"
#include "worker/probe_contract.h"

namespace mc::worker {

// ReportOf gives the report of the contract's GPU, or nullptr when the contract names none.
const DeviceReport* ReportOf(const ProbeResult& probe, const ProbeContract& contract);

}  // namespace mc::worker
