// Backoff is the wait before a failed write's next attempt.
// It starts at 1 s and doubles up to 1 min.
// It is never shorter than the server's Retry-After.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>

namespace mc::dra {

class Backoff {
 public:
  static constexpr std::chrono::seconds kFirst{1};
  static constexpr std::chrono::seconds kLast{60};

  // Next gives the wait before the next attempt.
  // It lengthens the one after it.
  std::chrono::seconds Next(std::optional<std::chrono::seconds> retry_after = std::nullopt) {
    const std::chrono::seconds wait =
        std::max(current_, retry_after.value_or(std::chrono::seconds(0)));
    current_ = std::min(current_ * 2, kLast);
    return std::min(wait, kLast);
  }
  void Reset() { current_ = kFirst; }

 private:
  std::chrono::seconds current_ = kFirst;
};

}  // namespace mc::dra
