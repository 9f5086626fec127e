// The dates of HTTP headers (RFC 9110 section 5.6.7), read without the C library's locale or
// time zone: a server may say when to come back (Retry-After) as a date instead of seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mc::kube {

// ParseHttpDate reads the three forms a recipient must accept, each in GMT, into seconds since
// the Unix epoch:
//   IMF-fixdate   "Sun, 06 Nov 1994 08:49:37 GMT"   (what servers send)
//   RFC 850       "Sunday, 06-Nov-94 08:49:37 GMT"  (obsolete)
//   asctime       "Sun Nov  6 08:49:37 1994"        (obsolete)
// Names are case-sensitive as the grammar says, the week day must be the date's own, and an
// RFC 850 two-digit year is the one of those digits from 49 years before `now`'s year to 50
// after it (more than 50 years ahead is taken as the past, as RFC 9110 asks).
// Anything else, a date that does not exist included, is nullopt.
std::optional<std::int64_t> ParseHttpDate(std::string_view text,
                                          std::chrono::system_clock::time_point now);

}  // namespace mc::kube
