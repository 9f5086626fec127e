// RequestWindow counts the requests sent in the last `window` of time. It refuses one past
// `budget`. So a client keeps under a server's rate limit by itself, not by meeting its 429s.
// PeerTube's default limit is 50 requests per 10 s per IP. Everything calling from one address
// shares it. A budget below it leaves room for the rest. The window slides: a request counts until
// exactly `window` after it was sent.
#pragma once

#include <chrono>
#include <deque>

namespace mc::peertube {

class RequestWindow {
 public:
  using Clock = std::chrono::steady_clock;

  // A budget below one is taken as one. A client that may send nothing is of no use.
  RequestWindow(int budget, Clock::duration window)
      : budget_(budget < 1 ? 1 : budget), window_(window) {}

  // TryTake counts one request at `now` and answers true when it fits the budget. When the budget
  // is spent, it answers false and counts nothing.
  bool TryTake(Clock::time_point now);

  // WaitFor: how long after `now` the next request fits. Zero when it fits now.
  Clock::duration WaitFor(Clock::time_point now);

  // InWindow: how many requests of the last window still count at `now`.
  int InWindow(Clock::time_point now);

  int budget() const { return budget_; }
  Clock::duration window() const { return window_; }

 private:
  void Forget(Clock::time_point now);

  int budget_;
  Clock::duration window_;
  std::deque<Clock::time_point> sent_;
};

}  // namespace mc::peertube
