#include "common/kube/retry_after.h"

#include <algorithm>
#include <charconv>

#include "common/kube/http_date.h"

namespace mc::kube {

std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view value,
                                                    std::chrono::system_clock::time_point now) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty()) return std::nullopt;

  if (value.front() >= '0' && value.front() <= '9') {
    long long seconds = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (error != std::errc() || end != value.data() + value.size()) return std::nullopt;
    return std::chrono::seconds(seconds);
  }
  const std::optional<std::int64_t> date = ParseHttpDate(value, now);
  if (!date) return std::nullopt;
  const auto wait = std::chrono::system_clock::time_point(std::chrono::seconds(*date)) - now;
  return std::max(std::chrono::seconds(0), std::chrono::ceil<std::chrono::seconds>(wait));
}

}  // namespace mc::kube
