// A watch's body is one JSON event per line. The network cuts it anywhere. LineSplitter holds a
// line's first part until its newline arrives.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mc::kube {

class LineSplitter {
 public:
  // The API server sends no event this long; it refuses objects over a few MiB. Holding more would
  // only let a confused server fill the memory.
  static constexpr std::size_t kMaxLine = 16u << 20;

  // Feed takes the next bytes of the body. It calls `on_line` with each line they complete, without
  // "\n" or "\r\n". Empty lines are skipped. It answers false once the pending line grows past
  // kMaxLine. Then it takes no more.
  bool Feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line);

  // The bytes after the last newline: a last line without its end.
  std::string_view rest() const { return pending_; }

 private:
  std::string pending_;
};

}  // namespace mc::kube
