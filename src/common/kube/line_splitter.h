// A watch's body is one JSON event per line, and the network cuts it anywhere: LineSplitter
// holds the part of a line that has arrived until its newline does.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mc::kube {

class LineSplitter {
 public:
  // A line longer than this is no event the API server would send (it refuses objects over
  // a few MiB); holding more would only let a confused server fill the memory.
  static constexpr std::size_t kMaxLine = 16u << 20;

  // Feed takes the next bytes of the body and calls `on_line` with each line they complete,
  // without its "\n" or "\r\n". Empty lines are skipped. It answers false, and takes no
  // more, once the pending line grows past kMaxLine.
  bool Feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line);

  // The bytes after the last newline: a final line that the body did not end.
  std::string_view rest() const { return pending_; }

 private:
  std::string pending_;
};

}  // namespace mc::kube
