#include "cli/wrapped_cell.h"

#include <algorithm>

namespace mc {
namespace {

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  while (!text.empty()) {
    const std::size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const std::size_t end = std::min(text.find(' '), text.size());
    words.push_back(text.substr(0, end));
    text.remove_prefix(end);
  }
  return words;
}

}  // namespace

std::size_t DisplayWidth(std::string_view text) {
  // Continuation bytes (10xxxxxx) belong to the character before them.
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string WrappedCell(std::string_view label, const std::vector<std::string>& paragraphs,
                        const CellLayout& layout) {
  std::string out;
  std::string line = std::string(layout.indent, ' ') + std::string(label);
  const auto start_value = [&line, &layout] {
    line += std::string(
        std::max<std::size_t>(layout.value_column, DisplayWidth(line) + 2) - DisplayWidth(line),
        ' ');
  };
  // A cell with no words leaves the padding after its label, which no line should end in.
  const auto flush = [&out, &line] {
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  };
  const auto end_line = [&flush, &line, &layout] {
    flush();
    line = std::string(layout.value_column, ' ');
  };
  start_value();
  for (std::size_t p = 0; p < paragraphs.size(); ++p) {
    if (p > 0) end_line();
    bool line_has_words = false;
    for (std::string_view word : Words(paragraphs[p])) {
      if (line_has_words && DisplayWidth(line) + 1 + DisplayWidth(word) > layout.width) {
        end_line();
        line_has_words = false;
      }
      if (line_has_words) line += ' ';
      line += word;
      line_has_words = true;
    }
  }
  flush();
  return out;
}

}  // namespace mc
