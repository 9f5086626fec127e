#include "worker/evidence/nvml_library.h"

#include <dlfcn.h>

#include <array>
#include <vector>

#include "worker/evidence/nvml_list.h"

namespace mc::worker {
namespace {

// NVML's C interface as its header declares it. No Debian package ships nvml.h outside non-free.
// nvmlReturn_t is an int-sized enum, nvmlDevice_t an opaque pointer.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kSuccess = kNvmlSuccess;
constexpr NvmlReturn kNotFound = 6;

struct ProcessUtilizationSample {  // nvmlProcessUtilizationSample_t
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil;
  unsigned int memUtil;
  unsigned int encUtil;
  unsigned int decUtil;
};
struct EncoderSessionInfo {  // nvmlEncoderSessionInfo_t
  unsigned int sessionId;
  unsigned int pid;
  unsigned int vgpuInstance;
  int codecType;
  unsigned int hResolution;
  unsigned int vResolution;
  unsigned int averageFps;
  unsigned int averageLatency;
};
struct Memory {  // nvmlMemory_t
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr int kTemperatureGpu = 0;        // NVML_TEMPERATURE_GPU
constexpr unsigned kUuidBufferSize = 96;  // NVML_DEVICE_UUID_V2_BUFFER_SIZE
constexpr unsigned kVersionBufferSize = 80;

struct ThrottleBit {
  std::uint64_t bit;
  const char* name;
  bool thermal_or_power;
};
// nvmlClocksThrottleReason*. Later headers rename it nvmlClocksEventReason*, with the same bits.
constexpr std::array<ThrottleBit, 8> kThrottleBits{{
    {0x2, "applications_clocks_setting", false},
    // A GPU at its power limit under load is working as designed, not in trouble.
    {0x4, "sw_power_cap", false},
    {0x8, "hw_slowdown", true},
    {0x10, "sync_boost", false},
    {0x20, "sw_thermal_slowdown", true},
    {0x40, "hw_thermal_slowdown", true},
    {0x80, "hw_power_brake_slowdown", true},
    {0x100, "display_clock_setting", false},
}};

}  // namespace

struct NvmlLibrary::Api {
  void* handle = nullptr;
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*process_utilization)(NvmlDevice, ProcessUtilizationSample*, unsigned int*,
                                    unsigned long long) = nullptr;
  NvmlReturn (*encoder_sessions)(NvmlDevice, unsigned int*, EncoderSessionInfo*) = nullptr;
  NvmlReturn (*memory_info)(NvmlDevice, Memory*) = nullptr;
  NvmlReturn (*encoder_utilization)(NvmlDevice, unsigned int*, unsigned int*) = nullptr;
  NvmlReturn (*decoder_utilization)(NvmlDevice, unsigned int*, unsigned int*) = nullptr;
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr;
  NvmlReturn (*throttle_reasons)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*uuid)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*index)(NvmlDevice, unsigned int*) = nullptr;
  NvmlReturn (*driver_version)(char*, unsigned int) = nullptr;

  std::string Failure(const char* call, NvmlReturn result) const {
    const char* text = error_string ? error_string(result) : nullptr;
    return std::string(call) + " failed: " + (text ? text : "NVML error") + " (" +
           std::to_string(result) + ")";
  }
  template <typename Function>
  void Bind(Function& function, const char* name) {
    function = reinterpret_cast<Function>(dlsym(handle, name));
  }
};

Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::Load(const std::string& library) {
  auto api = std::make_unique<Api>();
  api->handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api->handle) {
    const char* detail = dlerror();
    return Unavailable("cannot load " + library + (detail ? std::string(" (") + detail + ")" : ""));
  }
  api->Bind(api->init, "nvmlInit_v2");
  api->Bind(api->shutdown, "nvmlShutdown");
  api->Bind(api->error_string, "nvmlErrorString");
  api->Bind(api->by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  api->Bind(api->process_utilization, "nvmlDeviceGetProcessUtilization");
  api->Bind(api->encoder_sessions, "nvmlDeviceGetEncoderSessions");
  api->Bind(api->memory_info, "nvmlDeviceGetMemoryInfo");
  api->Bind(api->encoder_utilization, "nvmlDeviceGetEncoderUtilization");
  api->Bind(api->decoder_utilization, "nvmlDeviceGetDecoderUtilization");
  api->Bind(api->temperature, "nvmlDeviceGetTemperature");
  api->Bind(api->throttle_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  api->Bind(api->uuid, "nvmlDeviceGetUUID");
  api->Bind(api->index, "nvmlDeviceGetIndex");
  api->Bind(api->driver_version, "nvmlSystemGetDriverVersion");
  if (!api->init || !api->shutdown) {
    dlclose(api->handle);
    return Unavailable(library + " lacks nvmlInit_v2 or nvmlShutdown");
  }
  if (const NvmlReturn result = api->init(); result != kSuccess) {
    const std::string failure = api->Failure("nvmlInit_v2", result);
    dlclose(api->handle);
    return Unavailable(failure);
  }
  return std::unique_ptr<NvmlLibrary>(new NvmlLibrary(std::move(api)));
}

NvmlLibrary::NvmlLibrary(std::unique_ptr<Api> api) : api_(std::move(api)) {}

NvmlLibrary::~NvmlLibrary() {
  api_->shutdown();
  dlclose(api_->handle);
}

Result<void*> NvmlLibrary::Device(const std::string& pci_address) const {
  if (!api_->by_pci_bus_id) return Unsupported("NVML lacks nvmlDeviceGetHandleByPciBusId_v2");
  NvmlDevice device = nullptr;
  if (const NvmlReturn result = api_->by_pci_bus_id(pci_address.c_str(), &device);
      result != kSuccess) {
    return Unavailable(api_->Failure("nvmlDeviceGetHandleByPciBusId_v2", result));
  }
  return device;
}

Result<std::vector<NvmlProcessSample>> NvmlLibrary::ProcessSamples(void* device,
                                                                   std::uint64_t since_us) const {
  if (!api_->process_utilization) return Unsupported("NVML lacks nvmlDeviceGetProcessUtilization");
  // The sizing call's count is a hint, not a count of processes. "Not found" means no process ran
  // since the time asked for.
  std::vector<ProcessUtilizationSample> raw;
  const NvmlReturn result = NvmlListFrom<ProcessUtilizationSample>(
      [&](ProcessUtilizationSample* buffer, unsigned int* count) {
        return api_->process_utilization(device, buffer, count, since_us);
      },
      raw);
  if (result == kNotFound) return std::vector<NvmlProcessSample>{};
  if (result != kSuccess)
    return Unavailable(api_->Failure("nvmlDeviceGetProcessUtilization", result));
  std::vector<NvmlProcessSample> samples;
  for (const ProcessUtilizationSample& s : raw) {
    // Drivers have returned values above 100 for a process that has just exited. Such a sample
    // proves nothing.
    if (s.smUtil > 100 || s.encUtil > 100 || s.decUtil > 100 || s.pid == 0) continue;
    samples.push_back({s.pid, s.timeStamp, s.smUtil, s.memUtil, s.encUtil, s.decUtil});
  }
  return samples;
}

Result<std::vector<NvmlEncoderSession>> NvmlLibrary::EncoderSessions(void* device) const {
  if (!api_->encoder_sessions) return Unsupported("NVML lacks nvmlDeviceGetEncoderSessions");
  std::vector<EncoderSessionInfo> raw;
  const NvmlReturn result = NvmlListFrom<EncoderSessionInfo>(
      [&](EncoderSessionInfo* buffer, unsigned int* count) {
        return api_->encoder_sessions(device, count, buffer);
      },
      raw);
  if (result != kSuccess) return Unavailable(api_->Failure("nvmlDeviceGetEncoderSessions", result));
  std::vector<NvmlEncoderSession> sessions;
  for (const EncoderSessionInfo& s : raw) {
    sessions.push_back({s.sessionId, s.pid, static_cast<std::uint32_t>(s.codecType), s.hResolution,
                        s.vResolution});
  }
  return sessions;
}

NvmlTelemetry NvmlLibrary::Telemetry(void* device) const {
  NvmlTelemetry telemetry;
  auto note = [&](const char* call, NvmlReturn result) {
    telemetry.problems.push_back(api_->Failure(call, result));
  };
  if (api_->index) {
    unsigned int index = 0;
    if (const NvmlReturn r = api_->index(device, &index); r == kSuccess)
      telemetry.index = index;
    else
      note("nvmlDeviceGetIndex", r);
  }
  if (api_->uuid) {
    char uuid[kUuidBufferSize] = {};
    if (const NvmlReturn r = api_->uuid(device, uuid, kUuidBufferSize); r == kSuccess)
      telemetry.uuid = uuid;
    else
      note("nvmlDeviceGetUUID", r);
  }
  if (api_->memory_info) {
    Memory memory{};
    if (const NvmlReturn r = api_->memory_info(device, &memory); r == kSuccess) {
      telemetry.memory_total_bytes = memory.total;
      telemetry.memory_free_bytes = memory.free;
    } else {
      note("nvmlDeviceGetMemoryInfo", r);
    }
  }
  unsigned int value = 0;
  unsigned int period = 0;
  if (api_->encoder_utilization) {
    if (const NvmlReturn r = api_->encoder_utilization(device, &value, &period); r == kSuccess) {
      telemetry.enc_util_pct = value;
    } else {
      note("nvmlDeviceGetEncoderUtilization", r);
    }
  }
  if (api_->decoder_utilization) {
    if (const NvmlReturn r = api_->decoder_utilization(device, &value, &period); r == kSuccess) {
      telemetry.dec_util_pct = value;
    } else {
      note("nvmlDeviceGetDecoderUtilization", r);
    }
  }
  if (api_->temperature) {
    if (const NvmlReturn r = api_->temperature(device, kTemperatureGpu, &value); r == kSuccess) {
      telemetry.temperature_c = value;
    } else {
      note("nvmlDeviceGetTemperature", r);
    }
  }
  if (api_->throttle_reasons) {
    unsigned long long reasons = 0;
    if (const NvmlReturn r = api_->throttle_reasons(device, &reasons); r == kSuccess) {
      telemetry.throttle_reasons = reasons;
    } else {
      note("nvmlDeviceGetCurrentClocksThrottleReasons", r);
    }
  }
  return telemetry;
}

Result<std::string> NvmlLibrary::DriverVersion() const {
  if (!api_->driver_version) return Unsupported("NVML lacks nvmlSystemGetDriverVersion");
  char version[kVersionBufferSize] = {};
  if (const NvmlReturn r = api_->driver_version(version, kVersionBufferSize); r != kSuccess) {
    return Unavailable(api_->Failure("nvmlSystemGetDriverVersion", r));
  }
  return std::string(version);
}

std::vector<std::string> ThrottleReasonNames(std::uint64_t reasons) {
  std::vector<std::string> names;
  for (const ThrottleBit& bit : kThrottleBits) {
    if (reasons & bit.bit) names.emplace_back(bit.name);
  }
  return names;
}

std::vector<std::string> ThermalThrottleReasonNames(std::uint64_t reasons) {
  std::vector<std::string> names;
  for (const ThrottleBit& bit : kThrottleBits) {
    if (bit.thermal_or_power && (reasons & bit.bit)) names.emplace_back(bit.name);
  }
  return names;
}

}  // namespace mc::worker
