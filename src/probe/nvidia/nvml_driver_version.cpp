#include "probe/nvidia/nvml_driver_version.h"

#include <dlfcn.h>

namespace mc::probe {
namespace {

// NVML's documented C interface. It is declared here: no Debian package ships nvml.h outside
// non-free. nvmlReturn_t is an int-sized enum; success is 0.
using NvmlReturn = int;
using NvmlInit = NvmlReturn (*)();
using NvmlShutdown = NvmlReturn (*)();
using NvmlSystemGetDriverVersion = NvmlReturn (*)(char* version, unsigned int length);
using NvmlErrorString = const char* (*)(NvmlReturn result);

// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE.
constexpr unsigned kVersionBufferSize = 80;

struct Library {
  void* handle;
  ~Library() {
    if (handle) dlclose(handle);
  }
};

}  // namespace

Result<std::string> NvmlDriverVersion() {
  Library nvml{dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)};
  if (!nvml.handle) {
    const char* detail = dlerror();
    return Error{std::string("cannot load libnvidia-ml.so.1") +
                 (detail ? std::string(" (") + detail + ")" : "")};
  }
  auto init = reinterpret_cast<NvmlInit>(dlsym(nvml.handle, "nvmlInit_v2"));
  auto shutdown = reinterpret_cast<NvmlShutdown>(dlsym(nvml.handle, "nvmlShutdown"));
  auto get_version = reinterpret_cast<NvmlSystemGetDriverVersion>(
      dlsym(nvml.handle, "nvmlSystemGetDriverVersion"));
  auto error_string = reinterpret_cast<NvmlErrorString>(dlsym(nvml.handle, "nvmlErrorString"));
  if (!init || !shutdown || !get_version) {
    return Error{"libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlShutdown or nvmlSystemGetDriverVersion"};
  }
  auto failure = [&](const char* call, NvmlReturn result) {
    const char* text = error_string ? error_string(result) : nullptr;
    return Error{std::string(call) + " failed: " + (text ? text : "NVML error") + " (" +
                 std::to_string(result) + ")"};
  };
  if (NvmlReturn result = init(); result != 0) return failure("nvmlInit_v2", result);
  char version[kVersionBufferSize] = {};
  const NvmlReturn result = get_version(version, kVersionBufferSize);
  shutdown();
  if (result != 0) return failure("nvmlSystemGetDriverVersion", result);
  return std::string(version);
}

}  // namespace mc::probe
