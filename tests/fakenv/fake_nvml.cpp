// The fake of libnvidia-ml.so.1.
// It gives the driver version from the record.
// It also gives what a worker's gate and evidence sampler read of each GPU:
//  - per-process encoder and decoder samples of the engines' real work;
//  - the encode session list;
//  - the video memory the live clients hold.
// A GPU is found by index in PCI address order, or by PCI bus id.
// Its facts come from its state directory, shared by every process using it.
// fakenv_state.h describes that directory.
// nvmlDeviceGetEncoderCapacity is left out on purpose.
// It reports 100 on a real H200, which has no encoder.
// So nothing may take it for the truth.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fake_record.h"
#include "fake_results.h"
#include "fakenv_state.h"
#include "gpu_uuid.h"
#include "nvml_types.h"
#include "nvml_views.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using namespace fakenv::nvml;

constexpr unsigned kDefaultTemperatureC = 40;

// The devices' handles, one byte each by index; nothing dereferences them.
constexpr int kLargestMachine = 64;
char device_tokens[kLargestMachine];

bool HasGpu() { return fakenv::CurrentRecord().report.has_value(); }

int GpuCount() {
  return std::min(kLargestMachine, static_cast<int>(fakenv::CurrentMachine().gpus.size()));
}

// IndexOf gives the index a handle stands for, or -1 for none.
int IndexOf(void* device) {
  const auto token = reinterpret_cast<std::uintptr_t>(device);
  const auto first = reinterpret_cast<std::uintptr_t>(device_tokens);
  if (token < first || token >= first + static_cast<std::uintptr_t>(GpuCount())) return -1;
  return static_cast<int>(token - first);
}

bool IsDevice(void* device) { return IndexOf(device) >= 0; }

// GpuOf and DirOf give a valid handle's record and state directory.
const fakenv::Record& GpuOf(void* device) { return *fakenv::DeviceRecord(IndexOf(device)); }
std::string DirOf(void* device) { return fakenv::DeviceStateDir(IndexOf(device)); }

// Fill copies a list into a caller's array, NVML's way.
// A count of 0 asks for the count.
// A short array is answered with the count needed.
template <typename T>
int Fill(const std::vector<T>& items, unsigned int* count, T* out) {
  if (!count) return kErrorInvalidArgument;
  const auto needed = static_cast<unsigned int>(items.size());
  if (*count == 0 && !out) {
    *count = needed;
    return kSuccess;
  }
  if (*count < needed || (!out && needed > 0)) {
    *count = needed;
    return kErrorInsufficientSize;
  }
  for (std::size_t i = 0; i < items.size(); ++i) out[i] = items[i];
  *count = needed;
  return kSuccess;
}

bool SameAddress(const char* bus_id, const std::string& canonical) {
  unsigned domain = 0, bus = 0, slot = 0, function = 0, d2 = 0, b2 = 0, s2 = 0, f2 = 0;
  return std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) == 4 &&
         std::sscanf(canonical.c_str(), "%x:%x:%x.%x", &d2, &b2, &s2, &f2) == 4 && domain == d2 &&
         bus == b2 && slot == s2 && function == f2;
}

}  // namespace

FAKENV_EXPORT int nvmlInit_v2() {
  const fakenv::Record& record = fakenv::CurrentRecord();
  return record.replay.nvml_init_result.value_or(kSuccess);
}
FAKENV_EXPORT int nvmlInit() { return nvmlInit_v2(); }
FAKENV_EXPORT int nvmlShutdown() { return kSuccess; }

FAKENV_EXPORT int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  const fakenv::Record& record = fakenv::CurrentRecord();
  // A report without a driver version is one whose NVML could not say.
  // The fake cannot know why, and says so in NVML's most general words.
  if (!record.report || record.report->driver_version.empty()) return kErrorUnknown;
  std::snprintf(version, length, "%s", record.report->driver_version.c_str());
  return kSuccess;
}

FAKENV_EXPORT const char* nvmlErrorString(int result) { return fakenv::NvmlErrorText(result); }

FAKENV_EXPORT int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!count) return kErrorInvalidArgument;
  if (!HasGpu()) return kErrorUnknown;
  *count = static_cast<unsigned int>(GpuCount());
  return kSuccess;
}
FAKENV_EXPORT int nvmlDeviceGetCount(unsigned int* count) { return nvmlDeviceGetCount_v2(count); }

FAKENV_EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (!device || index >= static_cast<unsigned int>(GpuCount())) return kErrorInvalidArgument;
  if (!HasGpu()) return kErrorUnknown;
  *device = &device_tokens[index];
  return kSuccess;
}
FAKENV_EXPORT int nvmlDeviceGetHandleByIndex(unsigned int index, void** device) {
  return nvmlDeviceGetHandleByIndex_v2(index, device);
}

FAKENV_EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
  if (!bus_id || !device) return kErrorInvalidArgument;
  if (!HasGpu()) return kErrorUnknown;
  for (int index = 0; index < GpuCount(); ++index) {
    if (!SameAddress(bus_id, fakenv::DeviceRecord(index)->identity.pci_address)) continue;
    *device = &device_tokens[index];
    return kSuccess;
  }
  return kErrorNotFound;
}
FAKENV_EXPORT int nvmlDeviceGetHandleByPciBusId(const char* bus_id, void** device) {
  return nvmlDeviceGetHandleByPciBusId_v2(bus_id, device);
}

FAKENV_EXPORT int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
  if (!IsDevice(device) || !name) return kErrorInvalidArgument;
  std::snprintf(name, length, "%s", GpuOf(device).report->name.c_str());
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetIndex(void* device, unsigned int* index) {
  if (!IsDevice(device) || !index) return kErrorInvalidArgument;
  *index = static_cast<unsigned int>(IndexOf(device));
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetUUID(void* device, char* uuid, unsigned int length) {
  if (!IsDevice(device) || !uuid) return kErrorInvalidArgument;
  const std::string text = fakenv::GpuUuidText(GpuOf(device));
  if (length <= text.size()) return kErrorInsufficientSize;
  std::snprintf(uuid, length, "%s", text.c_str());
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetPciInfo_v3(void* device, PciInfo* pci) {
  if (!IsDevice(device) || !pci) return kErrorInvalidArgument;
  const fakenv::Identity& identity = GpuOf(device).identity;
  std::memset(pci, 0, sizeof *pci);
  unsigned function = 0;
  std::sscanf(identity.pci_address.c_str(), "%x:%x:%x.%x", &pci->domain, &pci->bus, &pci->device,
              &function);
  pci->pciDeviceId =
      static_cast<unsigned>(std::strtoul(identity.device.c_str(), nullptr, 16) << 16 |
                            std::strtoul(identity.vendor.c_str(), nullptr, 16));
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", pci->domain,
                pci->bus, pci->device);
  std::snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", pci->domain, pci->bus,
                pci->device);
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetMemoryInfo(void* device, Memory* memory) {
  if (!IsDevice(device) || !memory) return kErrorInvalidArgument;
  const unsigned long long total = fakenv::VideoMemoryBytes(GpuOf(device));
  const unsigned long long used = fakenv::UsedVideoMemory(fakenv::LiveClients(DirOf(device)));
  memory->total = total;
  memory->used = used < total ? used : total;
  memory->free = total - memory->used;
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetTemperature(void* device, unsigned int sensor,
                                           unsigned int* temperature) {
  if (!IsDevice(device) || !temperature || sensor != kTemperatureGpu) return kErrorInvalidArgument;
  const fakenv::Replay& replay = GpuOf(device).replay;
  *temperature =
      replay.temperature_c ? static_cast<unsigned>(*replay.temperature_c) : kDefaultTemperatureC;
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetCurrentClocksThrottleReasons(void* device,
                                                            unsigned long long* reasons) {
  if (!IsDevice(device) || !reasons) return kErrorInvalidArgument;
  *reasons = static_cast<unsigned long long>(GpuOf(device).replay.throttle_reasons.value_or(0));
  return kSuccess;
}
// NVML 12.4 renamed the call; both names answer.
FAKENV_EXPORT int nvmlDeviceGetCurrentClocksEventReasons(void* device,
                                                         unsigned long long* reasons) {
  return nvmlDeviceGetCurrentClocksThrottleReasons(device, reasons);
}

FAKENV_EXPORT int nvmlDeviceGetProcessUtilization(void* device, ProcessUtilizationSample* samples,
                                                  unsigned int* count,
                                                  unsigned long long last_seen) {
  if (!IsDevice(device) || !count) return kErrorInvalidArgument;
  const std::vector<ProcessUtilizationSample> newer =
      fakenv::ProcessSamples(fakenv::SamplesSince(DirOf(device), last_seen));
  // Sizing call: the real driver answers a buffer size even when nothing ran.
  if (!samples || *count < newer.size()) {
    *count = static_cast<unsigned int>(newer.empty() ? 1 : newer.size());
    return kErrorInsufficientSize;
  }
  if (newer.empty()) {
    *count = 0;
    return kErrorNotFound;
  }
  return Fill(newer, count, samples);
}

FAKENV_EXPORT int nvmlDeviceGetEncoderSessions(void* device, unsigned int* count,
                                               EncoderSessionInfo* sessions) {
  if (!IsDevice(device)) return kErrorInvalidArgument;
  const std::string dir = DirOf(device);
  return Fill(fakenv::EncoderSessions(fakenv::LiveClients(dir), fakenv::SamplesSince(dir, 0)),
              count, sessions);
}

FAKENV_EXPORT int nvmlDeviceGetEncoderStats(void* device, unsigned int* count, unsigned int* fps,
                                            unsigned int* latency) {
  if (!IsDevice(device) || !count || !fps || !latency) return kErrorInvalidArgument;
  const std::string dir = DirOf(device);
  const std::vector<EncoderSessionInfo> sessions =
      fakenv::EncoderSessions(fakenv::LiveClients(dir), fakenv::SamplesSince(dir, 0));
  *count = static_cast<unsigned int>(sessions.size());
  unsigned long long fps_sum = 0, latency_sum = 0;
  for (const EncoderSessionInfo& session : sessions) {
    fps_sum += session.averageFps;
    latency_sum += session.averageLatency;
  }
  *fps = sessions.empty() ? 0 : static_cast<unsigned int>(fps_sum / sessions.size());
  *latency = sessions.empty() ? 0 : static_cast<unsigned int>(latency_sum / sessions.size());
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetEncoderUtilization(void* device, unsigned int* utilization,
                                                  unsigned int* period) {
  if (!IsDevice(device) || !utilization || !period) return kErrorInvalidArgument;
  const std::uint64_t now = fakenv::NowMicros();
  *utilization = fakenv::EngineUtilization(fakenv::SamplesSince(DirOf(device), 0), now, true);
  *period = kSamplingPeriodUs;
  return kSuccess;
}

FAKENV_EXPORT int nvmlDeviceGetDecoderUtilization(void* device, unsigned int* utilization,
                                                  unsigned int* period) {
  if (!IsDevice(device) || !utilization || !period) return kErrorInvalidArgument;
  const std::uint64_t now = fakenv::NowMicros();
  *utilization = fakenv::EngineUtilization(fakenv::SamplesSince(DirOf(device), 0), now, false);
  *period = kSamplingPeriodUs;
  return kSuccess;
}
