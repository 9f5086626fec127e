// The probe's report of the GPU a contract speaks for: what the driver stated of it (the
// NVIDIA facts, the published attributes), which the contract itself does not carry.
#pragma once

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/probe_contract.h"

namespace mc::worker {

// ReportOf gives the report of the contract's GPU, or nullptr when the contract names none.
const probe::DeviceReport* ReportOf(const probe::ProbeResult& probe, const ProbeContract& contract);

// CudaIndexOf gives the GPU's place among the NVIDIA GPUs CUDA enumerates, which is
// ffmpeg's -gpu N: the ordinal its own query found it at, else its place in PCI address order
// among those CUDA may see (CUDA's order under CUDA_DEVICE_ORDER=PCI_BUS_ID). There a GPU
// whose query failed after CUDA found it, or that was not queried, keeps its place; only one
// CUDA does not see (hidden from this process, bound to another driver) has none.
int CudaIndexOf(const probe::ProbeResult& probe, const std::string& pci_address);

}  // namespace mc::worker
