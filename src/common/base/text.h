// Small text tools: text made fit for one log line, trimming, ASCII lower case, joining, and
// numbers read from the whole of a string.
#pragma once

#include <charconv>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace mc {

// JoinLines trims each line of `text`, drops the empty ones and joins the rest with "; ", so
// that a child's multi-line stderr fits the log's one line per device.
std::string JoinLines(std::string_view text);

// PrintableLine makes `text` valid UTF-8 and turns every control character (line breaks
// included) into a space, so that a server's message, which may hold anything, cannot break
// or forge a log line.
std::string PrintableLine(std::string_view text);

// Excerpt is the one way outside bytes are quoted in a message: the first `max_bytes` bytes
// at most, cut between characters, made printable as PrintableLine makes them.
std::string Excerpt(std::string_view text, std::size_t max_bytes);

// WithoutSecret is `text` with every occurrence of `secret` (a token, a password) replaced by
// "[redacted]", for text a server sent back, which may echo what it was sent.
std::string WithoutSecret(std::string text, std::string_view secret);

// The white space of the C locale: space, tab, line feed, carriage return, form feed and
// vertical tab.
inline constexpr std::string_view kWhiteSpace = " \t\n\r\f\v";

// Trim gives `text` without the characters of `characters` at either end; a format that
// knows only some white space (HTTP's space and tab) names those.
std::string_view Trim(std::string_view text, std::string_view characters = kWhiteSpace);

// AsciiLower gives `text` with A to Z made a to z and every other byte as it was, for the
// names that protocols and the kernel compare without case (schemes, hosts, hex digits).
std::string AsciiLower(std::string_view text);

// Joined gives the items with `separator` between each two of them.
std::string Joined(const std::vector<std::string>& items, std::string_view separator);

// ParseInteger reads the whole of `text` as a decimal integer of type T: an optional minus
// sign (for a signed T) and digits, nothing before or after them, and a value T can hold.
// Anything else, the empty string included, gives nullopt.
template <std::integral T>
std::optional<T> ParseInteger(std::string_view text) {
  T value{};
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc() || end != last) return std::nullopt;
  return value;
}

// ParseDouble reads the whole of `text` as a decimal floating-point number ("60", "29.97",
// "1e3"), by the rules of std::from_chars: no leading space or plus sign, nothing after it,
// and within a double's range. "inf" and "nan" are read as what they name; a caller that
// wants a finite number checks for it.
std::optional<double> ParseDouble(std::string_view text);

}  // namespace mc
