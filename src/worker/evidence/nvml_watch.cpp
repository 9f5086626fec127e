#include "worker/evidence/nvml_watch.h"

#include <algorithm>

namespace mc::worker {

NvmlWatch::NvmlWatch(const NvmlLibrary& nvml, void* device, std::chrono::milliseconds interval)
    : nvml_(nvml), device_(device), interval_(interval) {
  // The first reading is taken before the caller starts its work. So it is the "before".
  Read();
  {
    std::lock_guard lock(mutex_);
    free_before_ = least_free_;
  }
  thread_ = std::thread([this] {
    while (!stop_.load()) {
      std::this_thread::sleep_for(interval_);
      Read();
    }
  });
}

NvmlWatch::~NvmlWatch() { Stop(); }

void NvmlWatch::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void NvmlWatch::Read() {
  const NvmlTelemetry telemetry = nvml_.Telemetry(device_);
  Result<std::vector<NvmlEncoderSession>> sessions = nvml_.EncoderSessions(device_);
  std::lock_guard lock(mutex_);
  if (telemetry.memory_free_bytes) {
    least_free_ = least_free_ ? std::min(*least_free_, *telemetry.memory_free_bytes)
                              : *telemetry.memory_free_bytes;
  }
  if (sessions)
    most_sessions_ = std::max(most_sessions_, static_cast<std::int64_t>(sessions->size()));
}

std::optional<std::uint64_t> NvmlWatch::FreeBeforeBytes() const {
  std::lock_guard lock(mutex_);
  return free_before_;
}

std::optional<std::uint64_t> NvmlWatch::LeastFreeBytes() const {
  std::lock_guard lock(mutex_);
  return least_free_;
}

std::int64_t NvmlWatch::MostSessions() const {
  std::lock_guard lock(mutex_);
  return most_sessions_;
}

}  // namespace mc::worker
