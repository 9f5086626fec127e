// The status numbers and words the fake libraries answer with.
// NVIDIA's headers (cuda.h, nvml.h) define them.
// nv-codec-headers declares only a few CUresult values.
// So the ones the fakes need are spelled out here.
#pragma once

namespace fakenv {

inline constexpr int kCudaErrorInvalidValue = 1;
inline constexpr int kCudaErrorOutOfMemory = 2;
inline constexpr int kCudaErrorNotInitialized = 3;
inline constexpr int kCudaErrorNoDevice = 100;
inline constexpr int kCudaErrorInvalidDevice = 101;
inline constexpr int kCudaErrorInvalidContext = 201;
inline constexpr int kCudaErrorNotSupported = 801;
inline constexpr int kCudaErrorUnknown = 999;

struct CudaError {
  int result;
  const char* name;
  const char* description;
};

// FindCudaError gives cuGetErrorName's and cuGetErrorString's answers for a CUresult, or
// nullptr for one the fake does not know (the real call then fails too).
const CudaError* FindCudaError(int result);

// The nvmlReturn_t values the fake uses, and nvmlErrorString's words for them.
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlErrorUnknown = 999;
const char* NvmlErrorText(int result);

}  // namespace fakenv
