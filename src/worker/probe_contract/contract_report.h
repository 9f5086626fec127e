// The probe's report of the GPU a contract speaks for. It holds what the driver stated of it: the
// NVIDIA facts, the published attributes. The contract itself does not carry these.
#pragma once

#include "probe/pipeline/probe_pipeline.h"
#include "worker/probe_contract/probe_contract.h"

namespace mc::worker {

// ReportOf gives the report of the contract's GPU. nullptr when the contract names none.
const probe::DeviceReport* ReportOf(const probe::ProbeResult& probe, const ProbeContract& contract);

// CudaIndexOf gives the GPU's place among the NVIDIA GPUs CUDA enumerates. That is ffmpeg's -gpu N.
// It is the ordinal the GPU's own query found it at. Else it is its place in PCI address order
// among those CUDA may see. That is CUDA's order under CUDA_DEVICE_ORDER=PCI_BUS_ID. There a GPU
// keeps its place if its query failed after CUDA found it, or if it was not queried. Only a GPU
// CUDA does not see has none: hidden from this process, or bound to another driver.
int CudaIndexOf(const probe::ProbeResult& probe, const std::string& pci_address);

}  // namespace mc::worker
