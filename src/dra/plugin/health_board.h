// HealthBoard holds the latest health of every device the plugin reports to the kubelet.
// The query side writes it; each health stream waits on it and sends the whole board
// again whenever a value changes, since every message of the kubelet's stream must be the
// complete list of the driver's devices.
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
  // Why the device is unhealthy (the failed query's error); empty when it is healthy.
  std::string message;

  bool operator==(const DeviceHealth&) const = default;
};

// A copy of the board at one version; a reader compares versions to learn of a change.
struct HealthSnapshot {
  std::uint64_t version = 0;
  std::map<std::string, DeviceHealth> devices;
};

class HealthBoard {
 public:
  // Set records `device`'s health; waiters are woken only when the value really changes,
  // so a re-query that finds the same result sends the kubelet nothing.
  void Set(const std::string& device, DeviceHealth health);
  // Remove drops a device that left the node.
  void Remove(const std::string& device);

  HealthSnapshot Snapshot() const;

  // WaitForChange blocks until the board's version differs from `seen` or `timeout`
  // passes, and says whether it changed. The timeout lets a stream notice that the
  // kubelet went away or the plugin is stopping, which no write to the board signals.
  bool WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::uint64_t version_ = 0;
  std::map<std::string, DeviceHealth> devices_;
};

}  // namespace mc::dra
