#include "cuda_client.h"

#include <dlfcn.h>

namespace fakenv {
namespace {

using CtxGetDevice = CUresult (*)(CUdevice*);
using CtxPush = CUresult (*)(CUcontext);
using CtxPop = CUresult (*)(CUcontext*);

struct CudaEntryPoints {
  CtxGetDevice get_device = nullptr;
  CtxPush push = nullptr;
  CtxPop pop = nullptr;
};

// LibcudaEntryPoints binds the three entry points once: to the libcuda.so.1 the client
// already loaded, or else to the one the dynamic loader finds.
const CudaEntryPoints& LibcudaEntryPoints() {
  static const CudaEntryPoints entry_points = [] {
    CudaEntryPoints bound;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!library) library = dlopen("libcuda.so.1", RTLD_NOW);
    if (!library) return bound;
    bound.get_device = reinterpret_cast<CtxGetDevice>(dlsym(library, "cuCtxGetDevice"));
    bound.push = reinterpret_cast<CtxPush>(dlsym(library, "cuCtxPushCurrent_v2"));
    bound.pop = reinterpret_cast<CtxPop>(dlsym(library, "cuCtxPopCurrent_v2"));
    return bound;
  }();
  return entry_points;
}

}  // namespace

std::optional<int> CurrentDevice() {
  const CudaEntryPoints& cuda = LibcudaEntryPoints();
  CUdevice device = 0;
  if (!cuda.get_device || cuda.get_device(&device) != CUDA_SUCCESS) return std::nullopt;
  return static_cast<int>(device);
}

std::optional<int> ContextDevice(CUcontext context) {
  const CudaEntryPoints& cuda = LibcudaEntryPoints();
  if (!cuda.push || !cuda.pop || cuda.push(context) != CUDA_SUCCESS) return std::nullopt;
  const std::optional<int> device = CurrentDevice();
  CUcontext popped = nullptr;
  cuda.pop(&popped);
  return device;
}

}  // namespace fakenv
