#include "common/peertube/admin_credentials.h"

#include <vector>

#include "common/base/read_file.h"

namespace mc::peertube {
namespace {

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool HasControlCharacter(std::string_view text) {
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace

Result<AdminCredentials> ParseAdminCredentials(std::string_view text, const std::string& source) {
  auto wrong = [&](int line, const std::string& what) {
    return InvalidInput(source + ": line " + std::to_string(line) + ": " + what);
  };
  const std::vector<std::string_view> lines = Lines(text);
  if (lines.empty() || lines[0].empty()) return wrong(1, "empty (the admin's username)");
  // A PeerTube username is letters, digits, '.', '_' and '-'. A blank or a control character there
  // means the file was written wrong. The two lines may be swapped.
  for (const unsigned char c : lines[0]) {
    if (c <= 0x20 || c == 0x7f)
      return wrong(1, "the username holds a blank or a control character");
  }
  if (lines.size() < 2 || lines[1].empty()) return wrong(2, "missing (the password)");
  if (HasControlCharacter(lines[1])) return wrong(2, "the password holds a control character");
  for (std::size_t i = 2; i < lines.size(); ++i) {
    if (!lines[i].empty())
      return wrong(static_cast<int>(i + 1),
                   "unexpected (the file holds the username and the password only)");
  }
  return AdminCredentials(std::string(lines[0]), std::string(lines[1]));
}

Result<AdminCredentials> ReadAdminCredentials(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.error().WithContext("the admin credentials");
  return ParseAdminCredentials(*text, path);
}

}  // namespace mc::peertube
