// A server that is overloaded (429) or unavailable (503) may say when to come back. The API server
// sends whole seconds. HTTP also allows a date, which is read too.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace mc::kube {

// ParseRetryAfter reads a Retry-After header value. It is delta-seconds, or an HTTP date measured
// from `now`. A date in the past means at once. nullopt when it is neither.
std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view value,
                                                    std::chrono::system_clock::time_point now);

}  // namespace mc::kube
