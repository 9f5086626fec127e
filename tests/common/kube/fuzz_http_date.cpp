// A Retry-After header is outside input, and its date form has a parser of its own. Every
// input must be answered without a crash; a date that parses must survive being written
// again as an IMF-fixdate (the form servers send) and read back, and a wait read from a
// date is never negative.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>

#include "common/kube/http_date.h"
#include "common/kube/retry_after.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1796310000));
  const std::optional<std::chrono::seconds> wait = mc::kube::ParseRetryAfter(text, now);
  if (wait && wait->count() < 0) std::abort();

  const std::optional<std::int64_t> date = mc::kube::ParseHttpDate(text, now);
  if (!date) return 0;
  const std::time_t seconds = static_cast<std::time_t>(*date);
  std::tm parts{};
  if (!gmtime_r(&seconds, &parts)) std::abort();
  // Written by hand rather than by strftime, whose %Y does not pad the years before 1000.
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char written[64];
  const int length = std::snprintf(written, sizeof written, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                                   kDays[parts.tm_wday], parts.tm_mday, kMonths[parts.tm_mon],
                                   parts.tm_year + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec);
  if (length <= 0 || mc::kube::ParseHttpDate(
                         std::string_view(written, static_cast<std::size_t>(length)), now) != date)
    std::abort();
  return 0;
}
