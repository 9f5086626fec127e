// ISO-8601 times as PeerTube writes them, as seconds since the Unix epoch. Example:
// "2026-12-03T05:34:49.259Z" (createdAt, lastContact). The pool compares them with its own clock to
// age the queue. So they are read exactly, milliseconds kept. The C library's time zone plays no
// part.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mc {

// ParseIsoTime reads "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)". That is the form of
// JavaScript's toISOString(). PeerTube's own is always UTC ("Z"), with milliseconds. The answer is
// seconds since 1970-01-01T00:00:00Z. Anything else, or a date that does not exist, is nullopt.
std::optional<double> ParseIsoTime(std::string_view text);

// UtcSeconds reads the civil time given as UTC. The answer is seconds since 1970-01-01T00:00:00Z.
// It needs neither timegm nor the process's time zone. It is nullopt when no such time exists: the
// 31st of April, an hour of 24. A second of 60 is a leap second. It counts as the next minute's
// first, as in POSIX time. The HTTP date parser (src/common/kube/http_date.h) shares it.
std::optional<std::int64_t> UtcSeconds(int year, int month, int day, int hour, int minute,
                                       int second);

}  // namespace mc
