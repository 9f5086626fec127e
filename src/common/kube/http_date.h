// The dates of HTTP headers (RFC 9110 section 5.6.7). They are read without the C library's locale
// or time zone. A server may give Retry-After as a date instead of seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mc::kube {

// ParseHttpDate reads the three forms a recipient must accept, each in GMT:
// - IMF-fixdate, what servers send: "Sun, 06 Nov 1994 08:49:37 GMT";
// - RFC 850, obsolete: "Sunday, 06-Nov-94 08:49:37 GMT";
// - asctime, obsolete: "Sun Nov  6 08:49:37 1994".
//
// The answer is seconds since the Unix epoch. Names are case-sensitive, as the grammar says. The
// week day must be the date's own. An RFC 850 year has two digits. It is read within 49 years
// before `now`'s year and 50 after. RFC 9110 asks that more than 50 years ahead be taken as the
// past. Anything else is nullopt, a date that does not exist included.
std::optional<std::int64_t> ParseHttpDate(std::string_view text,
                                          std::chrono::system_clock::time_point now);

}  // namespace mc::kube
