// The worker's timestamps: RFC 3339 in UTC to the second, and the way back. The status document and
// the self-test's report write them.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace mc::worker {

std::string UtcText(std::chrono::system_clock::time_point when);

// NowUtc is UtcText of now.
std::string NowUtc();

// ParseUtc reads what UtcText writes. nullopt for anything else.
std::optional<std::chrono::system_clock::time_point> ParseUtc(const std::string& text);

}  // namespace mc::worker
