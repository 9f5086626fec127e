// The stand-in for libcuda.so.1: the entry points nv-codec-headers' loader requires, of
// which the ones the NVIDIA query calls answer from the record named by FAKENV_RECORD and
// the rest say CUDA_ERROR_NOT_SUPPORTED. cuInit is where a recorded failure, hang or crash
// happens, as on a real machine whose driver is broken.
#include <ffnvcodec/dynlink_cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fake_record.h"
#include "fake_results.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

const mc::NvidiaFacts& Report() { return *fakenv::CurrentRecord().report; }

bool Initialised(bool set = false) {
  static bool initialised = false;
  if (set) initialised = true;
  return initialised;
}

// The context handle the stand-in gives out; nothing dereferences it but the stand-ins.
int context_token = 0;

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
  Initialised(true);
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

FAKENV_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (device != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  // The report's address is canonical, "dddd:bb:dd.f".
  const std::string& address = Report().pci_address;
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (std::sscanf(address.c_str(), "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) {
    return static_cast<CUresult>(fakenv::kCudaErrorUnknown);
  }
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: *value = static_cast<int>(domain); return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *value = static_cast<int>(bus); return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: *value = static_cast<int>(slot); return CUDA_SUCCESS;
    default: return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
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

FAKENV_EXPORT CUresult cuCtxCreate_v2(CUcontext* context, unsigned int, CUdevice device) {
  if (device != 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  // A record whose context failed (a WSL2 box, its memory held by another
  // tenant) fails here the way that box did.
  if (!Report().cuda_context) return static_cast<CUresult>(fakenv::kCudaErrorOutOfMemory);
  *context = reinterpret_cast<CUcontext>(&context_token);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxDestroy_v2(CUcontext context) {
  return context == reinterpret_cast<CUcontext>(&context_token) ? CUDA_SUCCESS
                                                                : static_cast<CUresult>(fakenv::kCudaErrorInvalidContext);
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

// The entry points the loader insists on and the query never calls. They take no
// parameters here: on the System V ABI a caller's arguments in registers are simply unused.
#define FAKENV_UNSUPPORTED(name) \
  FAKENV_EXPORT int name() { return fakenv::kCudaErrorNotSupported; }
FAKENV_UNSUPPORTED(cuCtxSetLimit)
FAKENV_UNSUPPORTED(cuCtxPushCurrent_v2)
FAKENV_UNSUPPORTED(cuCtxPopCurrent_v2)
FAKENV_UNSUPPORTED(cuMemAlloc_v2)
FAKENV_UNSUPPORTED(cuMemAllocPitch_v2)
FAKENV_UNSUPPORTED(cuMemAllocManaged)
FAKENV_UNSUPPORTED(cuMemsetD8Async)
FAKENV_UNSUPPORTED(cuMemFree_v2)
FAKENV_UNSUPPORTED(cuMemcpy)
FAKENV_UNSUPPORTED(cuMemcpyAsync)
FAKENV_UNSUPPORTED(cuMemcpy2D_v2)
FAKENV_UNSUPPORTED(cuMemcpy2DAsync_v2)
FAKENV_UNSUPPORTED(cuMemcpyHtoD_v2)
FAKENV_UNSUPPORTED(cuMemcpyHtoDAsync_v2)
FAKENV_UNSUPPORTED(cuMemcpyDtoH_v2)
FAKENV_UNSUPPORTED(cuMemcpyDtoHAsync_v2)
FAKENV_UNSUPPORTED(cuMemcpyDtoD_v2)
FAKENV_UNSUPPORTED(cuMemcpyDtoDAsync_v2)
FAKENV_UNSUPPORTED(cuCtxGetDevice)
FAKENV_UNSUPPORTED(cuDevicePrimaryCtxRetain)
FAKENV_UNSUPPORTED(cuDevicePrimaryCtxRelease)
FAKENV_UNSUPPORTED(cuDevicePrimaryCtxSetFlags)
FAKENV_UNSUPPORTED(cuDevicePrimaryCtxGetState)
FAKENV_UNSUPPORTED(cuDevicePrimaryCtxReset)
FAKENV_UNSUPPORTED(cuStreamCreate)
FAKENV_UNSUPPORTED(cuStreamQuery)
FAKENV_UNSUPPORTED(cuStreamSynchronize)
FAKENV_UNSUPPORTED(cuStreamDestroy_v2)
FAKENV_UNSUPPORTED(cuStreamAddCallback)
FAKENV_UNSUPPORTED(cuEventCreate)
FAKENV_UNSUPPORTED(cuEventDestroy_v2)
FAKENV_UNSUPPORTED(cuEventSynchronize)
FAKENV_UNSUPPORTED(cuEventQuery)
FAKENV_UNSUPPORTED(cuEventRecord)
FAKENV_UNSUPPORTED(cuLaunchKernel)
FAKENV_UNSUPPORTED(cuLinkCreate)
FAKENV_UNSUPPORTED(cuLinkAddData)
FAKENV_UNSUPPORTED(cuLinkComplete)
FAKENV_UNSUPPORTED(cuLinkDestroy)
FAKENV_UNSUPPORTED(cuModuleLoadData)
FAKENV_UNSUPPORTED(cuModuleUnload)
FAKENV_UNSUPPORTED(cuModuleGetFunction)
FAKENV_UNSUPPORTED(cuModuleGetGlobal)
FAKENV_UNSUPPORTED(cuTexObjectCreate)
FAKENV_UNSUPPORTED(cuTexObjectDestroy)
FAKENV_UNSUPPORTED(cuGLGetDevices_v2)
FAKENV_UNSUPPORTED(cuGraphicsGLRegisterImage)
FAKENV_UNSUPPORTED(cuGraphicsUnregisterResource)
FAKENV_UNSUPPORTED(cuGraphicsMapResources)
FAKENV_UNSUPPORTED(cuGraphicsUnmapResources)
FAKENV_UNSUPPORTED(cuGraphicsSubResourceGetMappedArray)
FAKENV_UNSUPPORTED(cuGraphicsResourceGetMappedPointer_v2)
FAKENV_UNSUPPORTED(cuArray3DCreate_v2)
FAKENV_UNSUPPORTED(cuArrayDestroy)
