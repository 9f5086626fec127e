#include "common/base/iso_time.h"

#include <cstdint>

namespace mc {
namespace {

// Reads exactly `digits` decimal digits at `at`. Moves past them.
bool Digits(std::string_view text, std::size_t& at, int digits, int& out) {
  if (at + digits > text.size()) return false;
  out = 0;
  for (int i = 0; i < digits; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  at += digits;
  return true;
}

bool Expect(std::string_view text, std::size_t& at, char c) {
  if (at >= text.size() || text[at] != c) return false;
  ++at;
  return true;
}

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to the given civil date. This is Howard Hinnant's days_from_civil. It needs
// neither timegm nor the process's time zone.
std::int64_t DaysFromCivil(int year, int month, int day) {
  year -= month <= 2;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const unsigned year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

}  // namespace

std::optional<double> ParseIsoTime(std::string_view text) {
  std::size_t at = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(text, at, 4, year) || !Expect(text, at, '-') || !Digits(text, at, 2, month) ||
      !Expect(text, at, '-') || !Digits(text, at, 2, day) || !Expect(text, at, 'T') ||
      !Digits(text, at, 2, hour) || !Expect(text, at, ':') || !Digits(text, at, 2, minute) ||
      !Expect(text, at, ':') || !Digits(text, at, 2, second))
    return std::nullopt;
  const std::optional<std::int64_t> civil = UtcSeconds(year, month, day, hour, minute, second);
  if (!civil) return std::nullopt;
  // The fraction is read as an integer count of its units. It is then scaled once. So ".259" is the
  // double nearest 0.259, not a sum of rounded tenths.
  double fraction = 0;
  if (at < text.size() && text[at] == '.') {
    ++at;
    const std::size_t first = at;
    std::int64_t units = 0;
    double scale = 1;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - first < 9) {
      units = units * 10 + (text[at] - '0');
      scale *= 10;
      ++at;
    }
    if (at == first || (at < text.size() && text[at] >= '0' && text[at] <= '9'))
      return std::nullopt;
    fraction = static_cast<double>(units) / scale;
  }
  int offset_s = 0;
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const int sign = text[at] == '+' ? 1 : -1;
    ++at;
    int offset_hours = 0, offset_minutes = 0;
    if (!Digits(text, at, 2, offset_hours) || !Expect(text, at, ':') ||
        !Digits(text, at, 2, offset_minutes) || offset_hours > 23 || offset_minutes > 59)
      return std::nullopt;
    offset_s = sign * (offset_hours * 3600 + offset_minutes * 60);
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  return static_cast<double>(*civil - offset_s) + fraction;
}

std::optional<std::int64_t> UtcSeconds(int year, int month, int day, int hour, int minute,
                                       int second) {
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour < 0 ||
      hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60)
    return std::nullopt;
  return DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
}

}  // namespace mc
