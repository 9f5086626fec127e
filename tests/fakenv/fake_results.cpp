#include "fake_results.h"

#include <array>

namespace fakenv {

const CudaError* FindCudaError(int result) {
  static constexpr std::array<CudaError, 13> kErrors{{
      {0, "CUDA_SUCCESS", "no error"},
      {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
      {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
      {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
      {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
      {46, "CUDA_ERROR_DEVICES_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable"},
      {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
      {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
      {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
      {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
      {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
       "system has unsupported display driver / cuda driver combination"},
      {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
       "forward compatibility was attempted on non supported HW"},
      {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
  }};
  for (const CudaError& error : kErrors) {
    if (error.result == result) return &error;
  }
  return nullptr;
}

const char* NvmlErrorText(int result) {
  switch (result) {
    case 0:
      return "Success";
    case 1:
      return "Uninitialized";
    case 2:
      return "Invalid Argument";
    case 3:
      return "Not Supported";
    case 9:
      return "Driver Not Loaded";
    case 12:
      return "NVML Shared Library Not Found";
    default:
      return "Unknown Error";
  }
}

}  // namespace fakenv
