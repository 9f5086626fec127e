// The CUDA side of the NVIDIA query. It finds which CUDA device is the GPU at a PCI address, and
// who it is. It also words a failed CUDA call. CUDA numbers devices in its own order
// (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER). So the device is found by its PCI address, never by
// index.
#pragma once

#include <string>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"
#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

// CudaCallError names the call, and the CUresult by name and CUDA's description. Example: "cuInit
// failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected".
std::string CudaCallError(const CudaFunctions& cuda, const char* call, CUresult result);

// CudaDevice is one device CUDA enumerates: its handle and its ordinal. The ordinal is its place in
// CUDA's enumeration. That place depends on this process's CUDA_DEVICE_ORDER and
// CUDA_VISIBLE_DEVICES. ffmpeg's -gpu and -hwaccel_device name it.
struct CudaDevice {
  CUdevice handle = 0;
  int ordinal = 0;
};

// FindCudaDevice gives the CUDA device at canonical address `pci_address`. Its PCI domain, bus and
// device attributes make the address. The function is 0. CUDA has no function attribute, and a
// GPU's display function is 0. cuInit must have succeeded.
Result<CudaDevice> FindCudaDevice(const CudaFunctions& cuda, const std::string& pci_address);

// DescribeCudaDevice fills the facts' name, PCI address and compute capability. It also fills the
// CUDA driver version. The loader does not load that call; it is looked up in the same library. Its
// failure is a warning, not an error.
Result<void> DescribeCudaDevice(const CudaFunctions& cuda, CUdevice device, NvidiaFacts& facts);

}  // namespace mc::probe
