// The fake of libcuda.so.1:
//  - device queries answer from the record named by FAKENV_RECORD;
//  - there is one GPU per record of the machine, in PCI address order;
//  - CUDA_VISIBLE_DEVICES may hide some;
//  - contexts, streams and memory work, host memory serving as device memory;
//  - each context is on one GPU (cuda_context.cpp, cuda_memory.cpp);
//  - scale_cuda's resize kernels run (cuda_kernels.cpp);
//  - linking, graphics interop and arrays say CUDA_ERROR_NOT_SUPPORTED.
// cuInit is where a recorded failure, hang or crash happens.
// A real machine with a broken driver fails there too.
#include <ffnvcodec/dynlink_cuda.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_driver.h"
#include "fake_record.h"
#include "fake_results.h"
#include "gpu_uuid.h"

namespace {

// VisibleDevices gives the machine's index of each GPU CUDA shows, by CUDA's ordinal.
// It reads CUDA_VISIBLE_DEVICES as CUDA does:
//  - unset shows every GPU;
//  - else it is a comma-separated list of indices or UUIDs, or a UUID's beginning;
//  - the list ends at the first entry that names no GPU.
std::vector<int> ReadVisibleDevices() {
  const std::vector<fakenv::Record>& gpus = fakenv::CurrentMachine().gpus;
  std::vector<int> visible;
  const char* listed = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!listed) {
    for (std::size_t i = 0; i < gpus.size(); ++i) visible.push_back(static_cast<int>(i));
    return visible;
  }
  const std::string text = listed;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string entry = text.substr(at, comma - at);
    at = comma + 1;
    int found = -1;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const bool by_index = !entry.empty() && entry == std::to_string(i);
      const bool by_uuid = entry.size() > 4 && fakenv::GpuUuidText(gpus[i]).starts_with(entry);
      if (found < 0 && (by_index || by_uuid)) found = static_cast<int>(i);
    }
    if (found < 0 || std::find(visible.begin(), visible.end(), found) != visible.end()) break;
    visible.push_back(found);
  }
  return visible;
}

const std::vector<int>& VisibleDevices() {
  static const std::vector<int> visible = ReadVisibleDevices();
  return visible;
}

const mc::probe::NvidiaFacts& Report() { return *fakenv::CurrentRecord().report; }

bool Initialised() {
  std::lock_guard<std::mutex> lock(fakenv::Driver().mutex);
  return fakenv::Driver().initialised;
}

// CUDA's texture alignment on current GPUs.
// ffmpeg's frame pools align their planes to it.
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

namespace fakenv {

const Record* DeviceOf(CUdevice device) {
  const std::vector<int>& visible = VisibleDevices();
  if (std::find(visible.begin(), visible.end(), device) == visible.end()) return nullptr;
  const Record* record = DeviceRecord(device);
  return record && record->report ? record : nullptr;
}

}  // namespace fakenv

FAKENV_EXPORT CUresult cuDeviceGetCount(int* count) {
  if (!Initialised()) return static_cast<CUresult>(fakenv::kCudaErrorNotInitialized);
  *count = static_cast<int>(VisibleDevices().size());
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  const std::vector<int>& visible = VisibleDevices();
  if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= visible.size())
    return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  *device = visible[static_cast<std::size_t>(ordinal)];
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute,
                                            CUdevice device) {
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  // The report's address is canonical, "dddd:bb:dd.f".
  const std::string& address = record->report->pci_address;
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
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record || length <= 0) return static_cast<CUresult>(fakenv::kCudaErrorInvalidValue);
  std::snprintf(name, static_cast<std::size_t>(length), "%s", record->report->name.c_str());
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice device) {
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  if (std::sscanf(record->report->compute_capability.c_str(), "%d.%d", major, minor) != 2) {
    return static_cast<CUresult>(fakenv::kCudaErrorUnknown);
  }
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice device) {
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record) return static_cast<CUresult>(fakenv::kCudaErrorInvalidDevice);
  const std::array<unsigned char, 16> bytes = fakenv::GpuUuid(*record);
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

// The entry points the loader insists on that the fake does not offer.
// They are linking, module globals, graphics interop and arrays.
// They take no parameters here.
// On the System V ABI a caller's arguments in registers are simply unused.
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
