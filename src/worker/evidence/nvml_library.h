// NVML (libnvidia-ml.so.1), loaded at run time and never linked. The worker reads from it what it
// needs of a working NVIDIA GPU:
// - the per-process encoder and decoder utilisation;
// - the encoder sessions, with their owning PIDs;
// - the device's memory, temperature and throttle reasons.
//
// It never asks nvmlDeviceGetEncoderCapacity. On a GPU without NVENC (the H200) that call succeeds
// and says 100. So it cannot tell a missing encoder from an idle one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

// One nvmlProcessUtilizationSample_t. It is a process's share of each engine over the driver's last
// sampling period, in percent.
struct NvmlProcessSample {
  std::uint32_t pid = 0;
  std::uint64_t timestamp_us = 0;
  std::uint32_t sm_util = 0;
  std::uint32_t mem_util = 0;
  std::uint32_t enc_util = 0;
  std::uint32_t dec_util = 0;
};

// One nvmlEncoderSessionInfo_t.
struct NvmlEncoderSession {
  std::uint32_t session_id = 0;
  std::uint32_t pid = 0;
  // nvmlEncoderType_t: 0 H.264, 1 HEVC, 2 AV1.
  std::uint32_t codec = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
};

// What the status document shows of one device. A field NVML would not give is absent.
struct NvmlTelemetry {
  // NVML's index of the GPU: its place in PCI address order among the GPUs NVML sees. nvidia-smi
  // shows the same number.
  std::optional<std::uint32_t> index;
  std::optional<std::string> uuid;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_free_bytes;
  std::optional<std::uint32_t> enc_util_pct;
  std::optional<std::uint32_t> dec_util_pct;
  std::optional<std::uint32_t> temperature_c;
  // nvmlDeviceGetCurrentClocksThrottleReasons' bits.
  std::optional<std::uint64_t> throttle_reasons;
  // The calls that failed, in words.
  std::vector<std::string> problems;
};

class NvmlLibrary {
 public:
  // Load opens the library (by soname, from the loader's search path). Then it initialises NVML.
  static Result<std::unique_ptr<NvmlLibrary>> Load(
      const std::string& library = "libnvidia-ml.so.1");
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  // Device gives NVML's handle of the GPU at a canonical PCI address.
  Result<void*> Device(const std::string& pci_address) const;

  // ProcessSamples gives the samples newer than `since_us` (0 for all the driver holds). None is
  // not an error.
  Result<std::vector<NvmlProcessSample>> ProcessSamples(void* device, std::uint64_t since_us) const;
  Result<std::vector<NvmlEncoderSession>> EncoderSessions(void* device) const;
  NvmlTelemetry Telemetry(void* device) const;
  Result<std::string> DriverVersion() const;

  struct Api;

 private:
  explicit NvmlLibrary(std::unique_ptr<Api> api);
  std::unique_ptr<Api> api_;
};

// ThrottleReasonNames names the set bits of a throttle-reason mask, such as "hw_thermal_slowdown".
// The idle bit is not a throttle and is left out.
std::vector<std::string> ThrottleReasonNames(std::uint64_t reasons);

// ThermalThrottleReasonNames names only a mask's thermal and power slowdowns. Those put a worker in
// THERMAL_THROTTLED.
std::vector<std::string> ThermalThrottleReasonNames(std::uint64_t reasons);

}  // namespace mc::worker
