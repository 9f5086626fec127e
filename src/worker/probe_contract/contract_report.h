// The probe's report of the GPU a contract speaks for: what the driver stated of it (the
// NVIDIA facts, the published attributes), which the contract itself does not carry.
#pragma once

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/probe_contract.h"

namespace mc::worker {

// ReportOf gives the report of the contract's GPU, or nullptr when the contract names none.
const probe::DeviceReport* ReportOf(const probe::ProbeResult& probe, const ProbeContract& contract);

// CudaIndexOf gives the GPU's place among the NVIDIA GPUs CUDA enumerates, in PCI address
// order, which is CUDA's ordinal under CUDA_DEVICE_ORDER=PCI_BUS_ID (and ffmpeg's -gpu N). A
// GPU whose query failed after CUDA found it (a sibling with no room for a context) keeps its
// place, since CUDA still counts it; only one CUDA does not see (hidden from this process,
// bound to another driver) has none.
int CudaIndexOf(const probe::ProbeResult& probe, const std::string& pci_address);

}  // namespace mc::worker
