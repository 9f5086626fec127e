// What NVML reports, computed from the state directory's clients and samples: pure
// functions, so that the fake's answers can be checked without a running engine.
#pragma once

#include <cstdint>
#include <vector>

#include "fakenv_state.h"
#include "nvml_types.h"

namespace fakenv {

// ProcessSamples merges one process's session samples of the same sampling period.
// NVML keeps one sample per process and period.
// Each utilisation is capped at 100.
std::vector<nvml::ProcessUtilizationSample> ProcessSamples(const std::vector<Sample>& samples);

// EncoderSessions lists the live, attributed encode sessions, with the frame rate and latency
// of each one's newest sample.
std::vector<nvml::EncoderSessionInfo> EncoderSessions(const std::vector<ClientRecord>& clients,
                                                      const std::vector<Sample>& samples);

// EngineUtilization is the device's encoder (or decoder) load in the newest period: the sum
// over sessions of their newest sample in it, at most 100.
unsigned EngineUtilization(const std::vector<Sample>& samples, std::uint64_t now_us, bool encoder);

// UsedVideoMemory is what every live client holds together.
std::uint64_t UsedVideoMemory(const std::vector<ClientRecord>& clients);

}  // namespace fakenv
