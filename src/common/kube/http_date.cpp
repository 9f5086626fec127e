#include "common/kube/http_date.h"

#include <array>
#include <ctime>

#include "common/base/iso_time.h"

namespace mc::kube {
namespace {

constexpr std::array<std::string_view, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 7> kLongDays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// Cursor walks the text. Each step matches and moves on, or answers false.
struct Cursor {
  std::string_view text;

  bool Literal(std::string_view expected) {
    if (!text.starts_with(expected)) return false;
    text.remove_prefix(expected.size());
    return true;
  }
  // Exactly `count` digits. `space_first` allows a space first (asctime's " 6").
  bool Digits(int count, int& out, bool space_first = false) {
    if (text.size() < static_cast<std::size_t>(count)) return false;
    out = 0;
    for (int i = 0; i < count; ++i) {
      const char c = text[i];
      if (i == 0 && space_first && c == ' ' && count > 1) continue;
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    text.remove_prefix(count);
    return true;
  }
  // One of `names`, giving its index.
  template <std::size_t N>
  bool Name(const std::array<std::string_view, N>& names, int& index) {
    for (std::size_t i = 0; i < N; ++i) {
      if (Literal(names[i])) {
        index = static_cast<int>(i);
        return true;
      }
    }
    return false;
  }
  bool Time(int& hour, int& minute, int& second) {
    return Digits(2, hour) && Literal(":") && Digits(2, minute) && Literal(":") &&
           Digits(2, second);
  }
};

struct Fields {
  int week_day = 0, day = 0, month = 0, year = 0, hour = 0, minute = 0, second = 0;
};

// IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
bool ImfFixdate(std::string_view text, Fields& f) {
  Cursor at{text};
  return at.Name(kDays, f.week_day) && at.Literal(", ") && at.Digits(2, f.day) && at.Literal(" ") &&
         at.Name(kMonths, f.month) && at.Literal(" ") && at.Digits(4, f.year) && at.Literal(" ") &&
         at.Time(f.hour, f.minute, f.second) && at.Literal(" GMT") && at.text.empty();
}

// RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT". The two-digit year's century comes later.
bool Rfc850(std::string_view text, Fields& f) {
  Cursor at{text};
  return at.Name(kLongDays, f.week_day) && at.Literal(", ") && at.Digits(2, f.day) &&
         at.Literal("-") && at.Name(kMonths, f.month) && at.Literal("-") && at.Digits(2, f.year) &&
         at.Literal(" ") && at.Time(f.hour, f.minute, f.second) && at.Literal(" GMT") &&
         at.text.empty();
}

// asctime: "Sun Nov  6 08:49:37 1994"; a space pads the day.
bool Asctime(std::string_view text, Fields& f) {
  Cursor at{text};
  return at.Name(kDays, f.week_day) && at.Literal(" ") && at.Name(kMonths, f.month) &&
         at.Literal(" ") && at.Digits(2, f.day, /*space_first=*/true) && at.Literal(" ") &&
         at.Time(f.hour, f.minute, f.second) && at.Literal(" ") && at.Digits(4, f.year) &&
         at.text.empty();
}

int YearOf(std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  return parts.tm_year + 1900;
}

}  // namespace

std::optional<std::int64_t> ParseHttpDate(std::string_view text,
                                          std::chrono::system_clock::time_point now) {
  Fields f;
  if (!ImfFixdate(text, f) && !Asctime(text, f)) {
    if (!Rfc850(text, f)) return std::nullopt;
    // RFC 9110: a two-digit year over 50 years ahead is in the past. So the year lies within 49
    // years before this one and 50 after.
    const int this_year = YearOf(now);
    f.year += this_year - this_year % 100;
    if (f.year > this_year + 50) f.year -= 100;
    if (f.year <= this_year - 50) f.year += 100;
  }
  const std::optional<std::int64_t> seconds =
      UtcSeconds(f.year, f.month + 1, f.day, f.hour, f.minute, f.second);
  if (!seconds) return std::nullopt;
  // 1970-01-01 was a Thursday (4). Floor division keeps earlier dates right too.
  std::int64_t days = *seconds / 86400;
  if (*seconds % 86400 < 0) --days;
  if (((days + 4) % 7 + 7) % 7 != f.week_day) return std::nullopt;
  return seconds;
}

}  // namespace mc::kube
