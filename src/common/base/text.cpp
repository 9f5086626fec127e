#include "common/base/text.h"

#include <cctype>

#include "common/base/utf8.h"

namespace mc {

std::string JoinLines(std::string_view text) {
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string part(text.substr(start, end - start));
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back()))) part.pop_back();
    std::size_t first = 0;
    while (first < part.size() && std::isspace(static_cast<unsigned char>(part[first]))) ++first;
    part.erase(0, first);
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

}  // namespace mc
