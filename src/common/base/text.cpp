#include "common/base/text.h"

#include "common/base/utf8.h"

namespace mc {

std::string JoinLines(std::string_view text) {
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view part = Trim(text.substr(start, end - start));
    if (!part.empty()) {
      if (!line.empty()) line += "; ";
      line += part;
    }
    start = end + 1;
  }
  return line;
}

std::string PrintableLine(std::string_view text) {
  std::string line = ValidUtf8(text);
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return line;
}

std::string Excerpt(std::string_view text, std::size_t max_bytes) {
  // A character starting within the limit ends within four bytes of it.
  return TruncateUtf8(PrintableLine(text.substr(0, max_bytes + 4)), max_bytes);
}

std::string WithoutSecret(std::string text, std::string_view secret) {
  constexpr std::string_view kRedacted = "[redacted]";
  if (secret.empty()) return text;
  // Search on after the replacement; it may itself hold the secret.
  for (std::size_t at = text.find(secret); at != std::string::npos;
       at = text.find(secret, at + kRedacted.size()))
    text.replace(at, secret.size(), kRedacted);
  return text;
}

std::string_view Trim(std::string_view text, std::string_view characters) {
  const std::size_t first = text.find_first_not_of(characters);
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(characters);
  return text.substr(first, last - first + 1);
}

std::string AsciiLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

std::string Joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

std::string PrometheusLabelValue(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    if (c == '\\')
      escaped += "\\\\";
    else if (c == '"')
      escaped += "\\\"";
    else if (c == '\n')
      escaped += "\\n";
    else
      escaped += c;
  }
  return escaped;
}

std::optional<double> ParseDouble(std::string_view text) {
  double value = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc() || end != last) return std::nullopt;
  return value;
}

}  // namespace mc
