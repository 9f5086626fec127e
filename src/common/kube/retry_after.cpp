#include "common/kube/retry_after.h"

#include <algorithm>

#include "common/base/text.h"
#include "common/kube/http_date.h"

namespace mc::kube {

std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view value,
                                                    std::chrono::system_clock::time_point now) {
  value = Trim(value, " \t");
  if (value.empty()) return std::nullopt;

  if (value.front() >= '0' && value.front() <= '9') {
    const std::optional<long long> seconds = ParseInteger<long long>(value);
    if (!seconds) return std::nullopt;
    return std::chrono::seconds(*seconds);
  }
  const std::optional<std::int64_t> date = ParseHttpDate(value, now);
  if (!date) return std::nullopt;
  const auto wait = std::chrono::system_clock::time_point(std::chrono::seconds(*date)) - now;
  return std::max(std::chrono::seconds(0), std::chrono::ceil<std::chrono::seconds>(wait));
}

}  // namespace mc::kube
