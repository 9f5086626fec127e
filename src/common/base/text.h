// Small text tools:
// - text made fit for one log line;
// - trimming;
// - ASCII lower case;
// - joining;
// - a Prometheus label value;
// - numbers read from the whole of a string.
#pragma once

#include <charconv>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace mc {

// JoinLines trims each line of `text`, drops empty ones and joins the rest with "; ". So a child's
// multi-line stderr fits one log line per device.
std::string JoinLines(std::string_view text);

// PrintableLine makes `text` valid UTF-8. Every control character becomes a space, line breaks
// included. A server's message may hold anything. This way it cannot break or forge a log line.
std::string PrintableLine(std::string_view text);

// Excerpt is the one way to quote outside bytes in a message. It keeps at most `max_bytes` bytes,
// cut between characters. It makes them printable as PrintableLine does.
std::string Excerpt(std::string_view text, std::size_t max_bytes);

// WithoutSecret replaces each `secret` in `text` with "[redacted]". A secret is a token or a
// password. It is for text a server sent back, which may echo the request.
std::string WithoutSecret(std::string text, std::string_view secret);

// The C locale's white space: space, tab, line feed, carriage return, form feed, vertical tab.
inline constexpr std::string_view kWhiteSpace = " \t\n\r\f\v";

// The padding around a value on a line: space, tab, carriage return.
inline constexpr std::string_view kLinePadding = " \t\r";

// Trim drops the characters of `characters` at both ends of `text`. A format that knows only some
// white space names those. HTTP knows space and tab.
std::string_view Trim(std::string_view text, std::string_view characters = kWhiteSpace);

// AsciiLower turns A to Z into a to z; other bytes stay. It is for names compared without case.
// Protocols and the kernel do so for schemes, hosts and hex digits.
std::string AsciiLower(std::string_view text);

// Joined puts `separator` between each two items.
std::string Joined(const std::vector<std::string>& items, std::string_view separator);

// PrometheusLabelValue escapes `text` for a label value of the text exposition format: a
// backslash, a double quote and a line feed each become their escape. Every exporter of the
// project writes its labels through it.
std::string PrometheusLabelValue(std::string_view text);

// ParseInteger reads the whole of `text` as a decimal integer of type T. It takes:
// - an optional minus sign, for a signed T;
// - digits, with nothing before or after them;
// - a value T can hold.
//
// Anything else gives nullopt, the empty string included.
template <std::integral T>
std::optional<T> ParseInteger(std::string_view text) {
  T value{};
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc() || end != last) return std::nullopt;
  return value;
}

// ParseDouble reads the whole of `text` as a decimal floating-point number. Examples: "60",
// "29.97", "1e3". The rules are std::from_chars's:
// - no leading space or plus sign;
// - nothing after the number;
// - within a double's range.
//
// "inf" and "nan" are read as what they name. A caller that wants a finite number checks for it.
std::optional<double> ParseDouble(std::string_view text);

}  // namespace mc
