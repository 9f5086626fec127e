// The NVML types and values the fake answers with, as NVIDIA's nvml.h (NVML API 12)
// defines them; no package of Debian's ships that header.
#pragma once

namespace fakenv::nvml {

inline constexpr int kSuccess = 0;
inline constexpr int kErrorUninitialized = 1;
inline constexpr int kErrorInvalidArgument = 2;
inline constexpr int kErrorNotSupported = 3;
inline constexpr int kErrorNotFound = 6;
inline constexpr int kErrorInsufficientSize = 7;
inline constexpr int kErrorUnknown = 999;

inline constexpr unsigned kTemperatureGpu = 0;
inline constexpr unsigned kEncoderH264 = 0;
inline constexpr unsigned kEncoderHevc = 1;
// NVML's sampling period of the video engines' counters, as the H200 reported it.
inline constexpr unsigned kSamplingPeriodUs = 100000;

struct Memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct ProcessUtilizationSample {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil;
  unsigned int memUtil;
  unsigned int encUtil;
  unsigned int decUtil;
};

struct EncoderSessionInfo {
  unsigned int sessionId;
  unsigned int pid;
  unsigned int vgpuInstance;
  unsigned int codecType;
  unsigned int hResolution;
  unsigned int vResolution;
  unsigned int averageFps;
  unsigned int averageLatency;
};

struct PciInfo {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};

}  // namespace fakenv::nvml
