// NvmlWatch follows one GPU's free memory and encoder sessions while a self-test step runs. It runs
// on a thread of its own. The step can then report:
// - the VRAM its ffmpeg took: free memory before it started, less the least free while it ran;
// - the most sessions open at once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

#include "worker/evidence/nvml_library.h"

namespace mc::worker {

class NvmlWatch {
 public:
  NvmlWatch(const NvmlLibrary& nvml, void* device, std::chrono::milliseconds interval);
  ~NvmlWatch();
  NvmlWatch(const NvmlWatch&) = delete;
  NvmlWatch& operator=(const NvmlWatch&) = delete;

  // Stop ends the watching. The figures stay readable.
  void Stop();
  std::optional<std::uint64_t> FreeBeforeBytes() const;
  std::optional<std::uint64_t> LeastFreeBytes() const;
  std::int64_t MostSessions() const;

 private:
  void Read();

  const NvmlLibrary& nvml_;
  void* device_;
  std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;
  std::optional<std::uint64_t> free_before_;
  std::optional<std::uint64_t> least_free_;
  std::int64_t most_sessions_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace mc::worker
