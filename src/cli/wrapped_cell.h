// One labelled cell of a table for people, wrapped to the width of a terminal. It follows
// `kubectl describe` and `nvidia-smi -q`, which lay out one thing as "label  value" lines.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mc {

struct CellLayout {
  // Spaces before the label.
  std::size_t indent = 2;
  // The column the values start in; a longer label pushes its first line's value further.
  std::size_t value_column = 17;
  // The widest a line may be, in characters.
  std::size_t width = 80;
};

// WrappedCell gives the lines of `label` and its value.
//  - Each paragraph starts a line of its own.
//  - It wraps between words, so no line is wider than the layout's width.
//  - A single word wider than the room keeps its own line whole.
//  - Continuation lines start in the value column.
//  - Every line ends with "\n".
std::string WrappedCell(std::string_view label, const std::vector<std::string>& paragraphs,
                        const CellLayout& layout = {});

// DisplayWidth counts the characters of UTF-8 text. A terminal shows each in one column, for
// the scripts our drivers and pci.ids use.
std::size_t DisplayWidth(std::string_view text);

}  // namespace mc
