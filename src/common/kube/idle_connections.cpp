#include "common/kube/idle_connections.h"

#include <poll.h>

namespace mc::kube {
namespace {

// An idle connection has nothing to say. Readable means closed, reset, or out of step.
bool StillOpen(const http::Stream& stream) {
  if (stream.HasBuffered()) return false;
  pollfd entry{.fd = stream.fd(), .events = POLLIN, .revents = 0};
  return poll(&entry, 1, 0) == 0;
}

}  // namespace

std::unique_ptr<http::Stream> IdleConnections::Take() {
  while (true) {
    std::unique_ptr<http::Stream> stream;
    {
      std::lock_guard lock(mutex_);
      if (idle_.empty()) return nullptr;
      stream = std::move(idle_.back());
      idle_.pop_back();
    }
    // Check and close outside the lock, so no caller waits on another's close.
    if (StillOpen(*stream)) return stream;
  }
}

void IdleConnections::Put(std::unique_ptr<http::Stream> stream) {
  {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdle) {
      idle_.push_back(std::move(stream));
      return;
    }
  }
  // `stream` closes here, outside the lock.
}

}  // namespace mc::kube
