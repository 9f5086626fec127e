#include "common/kube/line_splitter.h"

namespace mc::kube {
namespace {

void Deliver(std::string_view line, const std::function<void(std::string_view)>& on_line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  if (!line.empty()) on_line(line);
}

}  // namespace

bool LineSplitter::Feed(std::string_view bytes,
                        const std::function<void(std::string_view)>& on_line) {
  if (pending_.size() > kMaxLine) return false;
  std::size_t newline = bytes.find('\n');
  // The first newline completes any line held from before.
  if (newline != std::string_view::npos && !pending_.empty()) {
    pending_.append(bytes.substr(0, newline));
    // The callback may take time. The held line is moved out first. So the splitter stays
    // consistent whatever the callback does.
    const std::string line = std::move(pending_);
    pending_.clear();
    Deliver(line, on_line);
    bytes.remove_prefix(newline + 1);
    newline = bytes.find('\n');
  }
  // Whole lines inside `bytes` go out without a copy.
  while (newline != std::string_view::npos) {
    Deliver(bytes.substr(0, newline), on_line);
    bytes.remove_prefix(newline + 1);
    newline = bytes.find('\n');
  }
  pending_.append(bytes);
  return pending_.size() <= kMaxLine;
}

}  // namespace mc::kube
