#include "common/peertube/request_window.h"

namespace mc::peertube {

void RequestWindow::Forget(Clock::time_point now) {
  while (!sent_.empty() && sent_.front() + window_ <= now) sent_.pop_front();
}

bool RequestWindow::TryTake(Clock::time_point now) {
  Forget(now);
  if (static_cast<int>(sent_.size()) >= budget_) return false;
  sent_.push_back(now);
  return true;
}

RequestWindow::Clock::duration RequestWindow::WaitFor(Clock::time_point now) {
  Forget(now);
  if (static_cast<int>(sent_.size()) < budget_) return Clock::duration::zero();
  // The budget is spent. The next fits once the request `budget` places back ages out.
  return sent_[sent_.size() - budget_] + window_ - now;
}

int RequestWindow::InWindow(Clock::time_point now) {
  Forget(now);
  return static_cast<int>(sent_.size());
}

}  // namespace mc::peertube
