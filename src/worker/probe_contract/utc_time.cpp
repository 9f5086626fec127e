#include "worker/probe_contract/utc_time.h"

#include <ctime>
#include <iomanip>
#include <sstream>

namespace mc::worker {

std::string UtcText(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string NowUtc() { return UtcText(std::chrono::system_clock::now()); }

std::optional<std::chrono::system_clock::time_point> ParseUtc(const std::string& text) {
  std::tm utc{};
  std::istringstream in(text);
  in >> std::get_time(&utc, "%Y-%m-%dT%H:%M:%SZ");
  if (in.fail()) return std::nullopt;
  return std::chrono::system_clock::from_time_t(timegm(&utc));
}

}  // namespace mc::worker
