#include "probe/nvidia/cuda_device.h"

#include <dlfcn.h>

#include <array>

#include "probe/gpu/pci_address.h"

namespace mc::probe {
namespace {

// Every libcuda has cuDriverGetVersion, but nv-codec-headers' loader does not load it. Its type is
// CUDA's documented one.
using CuDriverGetVersion = CUresult (*)(int* version);

}  // namespace

std::string CudaCallError(const CudaFunctions& cuda, const char* call, CUresult result) {
  std::string text = std::string(call) + " failed: ";
  const char* name = nullptr;
  const char* description = nullptr;
  if (cuda.cuGetErrorName && cuda.cuGetErrorName(result, &name) == CUDA_SUCCESS && name) {
    text += std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
  } else {
    text += "CUresult " + std::to_string(static_cast<int>(result));
  }
  if (cuda.cuGetErrorString && cuda.cuGetErrorString(result, &description) == CUDA_SUCCESS &&
      description) {
    text += ": " + std::string(description);
  }
  return text;
}

Result<CudaDevice> FindCudaDevice(const CudaFunctions& cuda, const std::string& pci_address) {
  int count = 0;
  if (CUresult result = cuda.cuDeviceGetCount(&count); result != CUDA_SUCCESS) {
    return Error{CudaCallError(cuda, "cuDeviceGetCount", result)};
  }
  std::string seen;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (CUresult result = cuda.cuDeviceGet(&device, ordinal); result != CUDA_SUCCESS) {
      return Error{CudaCallError(cuda, "cuDeviceGet", result)};
    }
    std::array<int, 3> numbers{};
    constexpr std::array<CUdevice_attribute, 3> kAttributes{CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
                                                            CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
                                                            CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID};
    for (std::size_t i = 0; i < kAttributes.size(); ++i) {
      if (CUresult result = cuda.cuDeviceGetAttribute(&numbers[i], kAttributes[i], device);
          result != CUDA_SUCCESS) {
        return Error{CudaCallError(cuda, "cuDeviceGetAttribute(PCI address)", result)};
      }
    }
    const std::string address = FormatPciAddress(static_cast<std::uint32_t>(numbers[0]),
                                                 static_cast<std::uint32_t>(numbers[1]),
                                                 static_cast<std::uint32_t>(numbers[2]), 0);
    if (address == pci_address) return CudaDevice{.handle = device, .ordinal = ordinal};
    seen += (seen.empty() ? "" : ", ") + address;
  }
  return Error{std::string(kNoCudaDeviceAt) + pci_address + " (CUDA sees " +
               (seen.empty() ? std::string("no device") : seen) + ")"};
}

Result<void> DescribeCudaDevice(const CudaFunctions& cuda, CUdevice device, NvidiaFacts& facts) {
  char name[256] = {};
  if (CUresult result = cuda.cuDeviceGetName(name, sizeof name - 1, device);
      result != CUDA_SUCCESS) {
    return Error{CudaCallError(cuda, "cuDeviceGetName", result)};
  }
  facts.name = name;
  int major = 0, minor = 0;
  if (CUresult result = cuda.cuDeviceComputeCapability(&major, &minor, device);
      result != CUDA_SUCCESS) {
    return Error{CudaCallError(cuda, "cuDeviceComputeCapability", result)};
  }
  facts.compute_capability = std::to_string(major) + "." + std::to_string(minor);

  auto get_version = reinterpret_cast<CuDriverGetVersion>(dlsym(cuda.lib, "cuDriverGetVersion"));
  int version = 0;
  if (!get_version) {
    facts.warnings.push_back("libcuda.so.1 has no cuDriverGetVersion");
  } else if (CUresult result = get_version(&version); result != CUDA_SUCCESS) {
    facts.warnings.push_back(CudaCallError(cuda, "cuDriverGetVersion", result));
  } else {
    facts.cuda_driver_version = version;
  }
  return Ok();
}

}  // namespace mc::probe
