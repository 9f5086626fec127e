// ISO-8601 times as PeerTube writes them ("2026-12-03T05:34:49.259Z": createdAt, lastContact), as
// seconds since the Unix epoch. The pool compares them with its own clock to age the queue,
// so they are read exactly, milliseconds kept, with no help from the C library's time zone.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mc {

// ParseIsoTime reads "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)", the form JavaScript's
// toISOString() writes (PeerTube's own is always UTC, "Z", with milliseconds), into seconds
// since 1970-01-01T00:00:00Z. Anything else, or a date that does not exist, is nullopt.
std::optional<double> ParseIsoTime(std::string_view text);

// UtcSeconds is the civil time given, read as UTC, in seconds since 1970-01-01T00:00:00Z,
// without timegm or the process's time zone; nullopt when no such time exists (the 31st of
// April, an hour of 24). A second of 60 is allowed for a leap second and counts as the next
// minute's first, as POSIX time does. The HTTP date parser (src/common/kube/http_date.h) shares it.
std::optional<std::int64_t> UtcSeconds(int year, int month, int day, int hour, int minute,
                                       int second);

}  // namespace mc
