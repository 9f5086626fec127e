// The stand-in for libcuda.so.1: the device queries answer from the record named by
// FAKENV_RECORD; contexts, streams and memory work (cuda_context.cpp, cuda_memory.cpp) with
// host memory as device memory; scale_cuda's resize kernels run (cuda_kernels.cpp); linking,
// graphics interop and arrays say CUDA_ERROR_NOT_SUPPORTED. cuInit is where a recorded failure,
// hang or crash happens, as on a real machine whose driver is broken.
#include <ffnvcodec/dynlink_cuda.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_driver.h"
#include "fake_record.h"
#include "fake_results.h"
#include "gpu_uuid.h"

namespace {

const mc::probe::NvidiaFacts& Report() { return *fakenv::CurrentRecord().report; }

bool Initialised() {
  std::lock_guard<std::mutex> lock(fakenv::Driver().mutex);
  return fakenv::Driver().initialised;
}

// CUDA's texture alignment on current GPUs, which ffmpeg's frame pools align their planes to.
constexpr int kTextureAlignment = 512;
constexpr int kAttributeTextureAlignment = 14;

}  // namespace

FAKENV_EXPORT CUresult cuInit(unsigned int) {
  const fakenv::Record& record = fakenv::CurrentRecord();
  switch (record.replay.cu_init) {
    case fakenv::Replay::CuInit::kHang:
      for (;;) pause();
    case fakenv::Replay::CuInit::kCrash:
      std::fprintf(stderr, "fakenv: cuInit crashes, as the record asks\n");
      std::abort();
    case fakenv::Replay::CuInit::kFail:
      return static_cast<CUresult>(record.replay.cu_init_result);
    case fakenv::Replay::CuInit::kReport:
      break;
  }
  std::lock_guard<std::mutex> lock(fakenv::Driver().mutex);
  fakenv::Driver().initialised = true;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDriverGetVersion(int* version) {
  if (!version) return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  *version = Report().cuda_driver_version;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGetCount(int* count) {
  if (!Initialised()) return static_cast<CUresult>(fakenv::kCudaErrorNotInitialized);
  *count = 1;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  *device = 0;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute,
                                            CUdevice device) {
  if (device != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  // The report's address is canonical, "dddd:bb:dd.f".
  const std::string& address = Report().pci_address;
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (std::sscanf(address.c_str(), "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) {
    return static_cast<CUresult>(fakenv::kCudaErrorUnknown);
  }
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
      *value = static_cast<int>(domain);
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
      *value = static_cast<int>(bus);
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
      *value = static_cast<int>(slot);
      return CUDA_SUCCESS;
    case kAttributeTextureAlignment:
      *value = kTextureAlignment;
      return CUDA_SUCCESS;
    default:
      return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  }
}

FAKENV_EXPORT CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (device != 0 || length <= 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  std::snprintf(name, static_cast<std::size_t>(length), "%s", Report().name.c_str());
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice device) {
  if (device != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  if (std::sscanf(Report().compute_capability.c_str(), "%d.%d", major, minor) != 2) {
    return static_cast<CUresult>(fakenv::kCudaErrorUnknown);
  }
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice device) {
  if (device != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  const std::array<unsigned char, 16> bytes = fakenv::GpuUuid(fakenv::CurrentRecord());
  std::memcpy(uuid->bytes, bytes.data(), bytes.size());
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuGetErrorName(CUresult result, const char** name) {
  const fakenv::CudaError* error = fakenv::FindCudaError(static_cast<int>(result));
  if (!error) return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  *name = error->name;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuGetErrorString(CUresult result, const char** text) {
  const fakenv::CudaError* error = fakenv::FindCudaError(static_cast<int>(result));
  if (!error) return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  *text = error->description;
  return CUDA_SUCCESS;
}

// The entry points the loader insists on that the stand-in does not offer: linking,
// module globals, graphics interop and arrays. They take no
// parameters here: on the System V ABI a caller's arguments in registers are simply unused.
#define FAKENV_UNSUPPORTED(name) \
  FAKENV_EXPORT int name() { return fakenv::kCudaErrorNotSupported; }
FAKENV_UNSUPPORTED(cuLinkCreate)
FAKENV_UNSUPPORTED(cuLinkAddData)
FAKENV_UNSUPPORTED(cuLinkComplete)
FAKENV_UNSUPPORTED(cuLinkDestroy)
FAKENV_UNSUPPORTED(cuModuleGetGlobal)
FAKENV_UNSUPPORTED(cuGLGetDevices_v2)
FAKENV_UNSUPPORTED(cuGraphicsGLRegisterImage)
FAKENV_UNSUPPORTED(cuGraphicsUnregisterResource)
FAKENV_UNSUPPORTED(cuGraphicsMapResources)
FAKENV_UNSUPPORTED(cuGraphicsUnmapResources)
FAKENV_UNSUPPORTED(cuGraphicsSubResourceGetMappedArray)
FAKENV_UNSUPPORTED(cuGraphicsResourceGetMappedPointer_v2)
FAKENV_UNSUPPORTED(cuArray3DCreate_v2)
FAKENV_UNSUPPORTED(cuArrayDestroy)
