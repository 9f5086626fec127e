#include "pool/policy/signals.h"

#include <algorithm>
#include <array>
#include <utility>

namespace mc::pool {

namespace {

constexpr std::array<std::pair<std::string_view, AdmissionState>, 8> kAdmissionStates = {{
    {"AVAILABLE", AdmissionState::kAvailable},
    {"BUSY", AdmissionState::kBusy},
    {"DRAINING", AdmissionState::kDraining},
    {"DRAINED", AdmissionState::kDrained},
    {"GPU_UNAVAILABLE", AdmissionState::kGpuUnavailable},
    {"THERMAL_THROTTLED", AdmissionState::kThermalThrottled},
    {"NETWORK_DEGRADED", AdmissionState::kNetworkDegraded},
    {"OFFLINE", AdmissionState::kOffline},
}};

}  // namespace

std::string_view AdmissionStateName(AdmissionState state) {
  for (const auto& [name, value] : kAdmissionStates) {
    if (value == state) return name;
  }
  return "OFFLINE";
}

std::optional<AdmissionState> ParseAdmissionState(std::string_view name) {
  for (const auto& [word, value] : kAdmissionStates) {
    if (word == name) return value;
  }
  return std::nullopt;
}

int QueueSignal::PendingOfType(const std::string& type) const {
  return static_cast<int>(std::count_if(pending.begin(), pending.end(),
                                        [&](const PendingJob& job) { return job.type == type; }));
}

Duration QueueSignal::OldestPendingAge() const {
  Duration oldest = Seconds(0);
  for (const PendingJob& job : pending) oldest = std::max(oldest, job.age);
  return oldest;
}

}  // namespace mc::pool
