#include "dra/plugin/health_board.h"

namespace mc::dra {

void HealthBoard::Set(const std::string& device, DeviceHealth health) {
  {
    std::lock_guard lock(mutex_);
    auto found = devices_.find(device);
    if (found != devices_.end() && found->second == health) return;
    devices_[device] = std::move(health);
    ++version_;
  }
  changed_.notify_all();
}

void HealthBoard::Remove(const std::string& device) {
  {
    std::lock_guard lock(mutex_);
    if (devices_.erase(device) == 0) return;
    ++version_;
  }
  changed_.notify_all();
}

HealthSnapshot HealthBoard::Snapshot() const {
  std::lock_guard lock(mutex_);
  return HealthSnapshot{version_, devices_};
}

bool HealthBoard::WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return version_ != seen; });
}

}  // namespace mc::dra
