// RequestWindow counts the requests sent in the last `window` of time and refuses one past
// `budget`, so that a client keeps under a server's rate limit by itself rather than by
// meeting its 429s. PeerTube's default limit is 50 requests per 10 s per IP, shared by
// everything that calls it from one address; a budget below it leaves room for the rest.
// The window slides: a request counts until exactly `window` after it was sent.
#pragma once

#include <chrono>
#include <deque>

namespace mc::peertube {

class RequestWindow {
 public:
  using Clock = std::chrono::steady_clock;

  // A budget below one is taken as one: a client that may send nothing is of no use.
  RequestWindow(int budget, Clock::duration window)
      : budget_(budget < 1 ? 1 : budget), window_(window) {}

  // TryTake counts one request at `now` and says true when it fits the budget; false, and
  // nothing counted, when the budget is spent.
  bool TryTake(Clock::time_point now);

  // WaitFor is how long after `now` the next request will fit (zero when it fits now).
  Clock::duration WaitFor(Clock::time_point now);

  // InWindow is how many requests of the last window still count at `now`.
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
