// The CUDA side of the NVIDIA query: which CUDA device is the GPU at a PCI address, who it
// is, and the words for a failed CUDA call. CUDA numbers its devices in an order of its
// own (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER), so the device is found by its PCI
// address, never by index.
#pragma once

#include <string>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"
#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

// CudaCallError names the call and the CUresult by its name and CUDA's description, such
// as "cuInit failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected".
std::string CudaCallError(const CudaFunctions& cuda, const char* call, CUresult result);

// CudaDevice is one device CUDA enumerates: its handle, and its ordinal, the place in CUDA's
// enumeration (under this process's CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES) that
// ffmpeg's -gpu and -hwaccel_device name.
struct CudaDevice {
  CUdevice handle = 0;
  int ordinal = 0;
};

// FindCudaDevice gives the CUDA device whose PCI domain, bus and device attributes make the
// canonical address `pci_address` (function 0: CUDA has no function attribute, and a GPU's
// display function is function 0). cuInit must have succeeded.
Result<CudaDevice> FindCudaDevice(const CudaFunctions& cuda, const std::string& pci_address);

// DescribeCudaDevice fills the facts' name, PCI address and compute capability, and the CUDA
// driver version, which the loader does not load and which is looked up in the same
// library; a failure of the last is a warning, not an error.
Result<void> DescribeCudaDevice(const CudaFunctions& cuda, CUdevice device, NvidiaFacts& facts);

}  // namespace mc::probe
