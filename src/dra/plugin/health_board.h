// HealthBoard holds the latest health of every device the plugin reports.
// The query side writes it.
// Each health stream waits on it and sends the whole board on every change.
// Every message of the kubelet's stream must list all the driver's devices.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace mc::dra {

struct DeviceHealth {
  bool healthy = false;
  // Why the device is unhealthy: the failed query's error.
  // Empty when it is healthy.
  std::string message;

  bool operator==(const DeviceHealth&) const = default;
};

// A copy of the board at one version.
// A reader compares versions to learn of a change.
struct HealthSnapshot {
  std::uint64_t version = 0;
  std::map<std::string, DeviceHealth> devices;
};

class HealthBoard {
 public:
  // Set records `device`'s health.
  // It wakes waiters only when the value really changes.
  // So a re-query with the same result sends the kubelet nothing.
  void Set(const std::string& device, DeviceHealth health);
  // Remove drops a device that left the node.
  void Remove(const std::string& device);

  HealthSnapshot Snapshot() const;

  // WaitForChange blocks until the version differs from `seen`, or `timeout` passes.
  // It says whether the board changed.
  // The timeout lets a stream notice that the kubelet left or the plugin stops.
  // No write to the board signals those.
  bool WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::uint64_t version_ = 0;
  std::map<std::string, DeviceHealth> devices_;
};

}  // namespace mc::dra
