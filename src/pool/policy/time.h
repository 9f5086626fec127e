// The pool's clock is a value the caller passes in.
// The policy never reads a wall clock.
// So the simulator can replay a day in seconds, and a test can pick any instant.
#pragma once

#include <chrono>
#include <string>

namespace mc::pool {

// Seconds, as a double: every rate and window of the policy is a fraction of seconds.
using Duration = std::chrono::duration<double>;
using TimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;

constexpr Duration Seconds(double seconds) { return Duration(seconds); }
constexpr Duration Minutes(double minutes) { return Duration(minutes * 60.0); }
constexpr Duration Hours(double hours) { return Duration(hours * 3600.0); }

// At gives the instant `seconds` after the epoch; simulations count from there.
constexpr TimePoint At(double seconds) { return TimePoint(Duration(seconds)); }

// FormatDuration writes a duration for a person: "29s", "6m12s", "1h05m".
std::string FormatDuration(Duration duration);

}  // namespace mc::pool
