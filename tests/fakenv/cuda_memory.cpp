// The CUDA fake's device memory is host memory.
// It is allocated in the current context and counted as its video memory.
// Copies between any two kinds of it are done at once with memcpy.
#include <cstdlib>
#include <cstring>

#include "cuda_driver.h"
#include "fake_results.h"

namespace fakenv {
namespace {

// CUDA's pitch and texture alignment on current GPUs.
constexpr std::size_t kPitchAlignment = 512;

CUresult Allocate(CUdeviceptr* pointer, std::size_t size) {
  if (!pointer || size == 0) return Result(kCudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  CudaContext* context = CurrentContext();
  if (!context) return Result(kCudaErrorInvalidContext);
  const std::size_t rounded = (size + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  void* memory = std::aligned_alloc(kPitchAlignment, rounded);
  if (!memory) return Result(kCudaErrorOutOfMemory);
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  Driver().allocations[*pointer] = {rounded, context};
  context->allocated_bytes += rounded;
  AccountContextMemory(*context);
  return CUDA_SUCCESS;
}

const void* SourceOf(const CUDA_MEMCPY2D& copy) {
  return copy.srcMemoryType == CU_MEMORYTYPE_HOST ? copy.srcHost
                                                  : reinterpret_cast<const void*>(copy.srcDevice);
}

void* DestinationOf(const CUDA_MEMCPY2D& copy) {
  return copy.dstMemoryType == CU_MEMORYTYPE_HOST ? copy.dstHost
                                                  : reinterpret_cast<void*>(copy.dstDevice);
}

CUresult Copy2D(const CUDA_MEMCPY2D* copy) {
  if (!copy) return Result(kCudaErrorInvalidValue);
  if (copy->srcMemoryType == CU_MEMORYTYPE_ARRAY || copy->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    return Result(kCudaErrorNotSupported);
  }
  // An empty copy does nothing, even with null pointers.
  // ffmpeg's CUVID decoder copies a third plane of NV12, which has two.
  // It copies it with width 0 to a null address.
  if (copy->WidthInBytes == 0 || copy->Height == 0) return CUDA_SUCCESS;
  const auto* source = static_cast<const std::byte*>(SourceOf(*copy));
  auto* destination = static_cast<std::byte*>(DestinationOf(*copy));
  if (!source || !destination || copy->WidthInBytes > copy->srcPitch ||
      copy->WidthInBytes > copy->dstPitch) {
    return Result(kCudaErrorInvalidValue);
  }
  for (std::size_t row = 0; row < copy->Height; ++row) {
    std::memcpy(destination + (copy->dstY + row) * copy->dstPitch + copy->dstXInBytes,
                source + (copy->srcY + row) * copy->srcPitch + copy->srcXInBytes,
                copy->WidthInBytes);
  }
  return CUDA_SUCCESS;
}

CUresult Copy(void* destination, const void* source, std::size_t size) {
  if (size == 0) return CUDA_SUCCESS;
  if (!destination || !source) return Result(kCudaErrorInvalidValue);
  std::memmove(destination, source, size);
  return CUDA_SUCCESS;
}

void* Host(CUdeviceptr pointer) { return reinterpret_cast<void*>(pointer); }

}  // namespace
}  // namespace fakenv

using fakenv::Copy;
using fakenv::Host;

FAKENV_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t size) {
  return fakenv::Allocate(pointer, size);
}

FAKENV_EXPORT CUresult cuMemAllocManaged(CUdeviceptr* pointer, size_t size, unsigned int) {
  return fakenv::Allocate(pointer, size);
}

FAKENV_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr* pointer, size_t* pitch, size_t width,
                                          size_t height, unsigned int) {
  if (!pitch) return fakenv::Result(fakenv::kCudaErrorInvalidValue);
  *pitch =
      (width + fakenv::kPitchAlignment - 1) / fakenv::kPitchAlignment * fakenv::kPitchAlignment;
  return fakenv::Allocate(pointer, *pitch * height);
}

FAKENV_EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  if (pointer == 0) return CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(fakenv::Driver().mutex);
  auto found = fakenv::Driver().allocations.find(pointer);
  if (found == fakenv::Driver().allocations.end())
    return fakenv::Result(fakenv::kCudaErrorInvalidValue);
  fakenv::CudaContext* context = found->second.second;
  context->allocated_bytes -= found->second.first;
  fakenv::AccountContextMemory(*context);
  fakenv::Driver().allocations.erase(found);
  std::free(Host(pointer));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuMemsetD8Async(CUdeviceptr pointer, unsigned char value, size_t size,
                                       CUstream) {
  if (pointer == 0) return fakenv::Result(fakenv::kCudaErrorInvalidValue);
  std::memset(Host(pointer), value, size);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuMemcpy(CUdeviceptr to, CUdeviceptr from, size_t size) {
  return Copy(Host(to), Host(from), size);
}
FAKENV_EXPORT CUresult cuMemcpyAsync(CUdeviceptr to, CUdeviceptr from, size_t size, CUstream) {
  return Copy(Host(to), Host(from), size);
}
FAKENV_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* copy) { return fakenv::Copy2D(copy); }
FAKENV_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* copy, CUstream) {
  return fakenv::Copy2D(copy);
}
FAKENV_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t size) {
  return Copy(Host(to), from, size);
}
FAKENV_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, size_t size,
                                            CUstream) {
  return Copy(Host(to), from, size);
}
FAKENV_EXPORT CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t size) {
  return Copy(to, Host(from), size);
}
FAKENV_EXPORT CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, size_t size, CUstream) {
  return Copy(to, Host(from), size);
}
FAKENV_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr to, CUdeviceptr from, size_t size) {
  return Copy(Host(to), Host(from), size);
}
FAKENV_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr to, CUdeviceptr from, size_t size,
                                            CUstream) {
  return Copy(Host(to), Host(from), size);
}
