// Fuzz target: a response read off a stream that delivers it in pieces of any size gives the
// same head and body (or the same error code) as when it arrives whole, never a crash. The
// first byte chooses the pieces' sizes; the rest is the message.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/http/message_head.h"
#include "common/http/message_io.h"
#include "common/http/transport.h"

namespace {

// A stream over bytes in memory, handing out at most `piece` bytes a read.
class PiecesStream : public mc::http::Stream {
 public:
  PiecesStream(std::string_view bytes, std::size_t piece) : bytes_(bytes), piece_(piece) {}
  mc::Result<std::size_t> Read(char* data, std::size_t size, mc::http::Deadline) override {
    const std::size_t n = std::min({size, piece_, bytes_.size()});
    bytes_.copy(data, n);
    bytes_.remove_prefix(n);
    return n;
  }
  mc::Result<void> Write(std::string_view, mc::http::Deadline) override { return mc::Ok(); }
  int fd() const override { return -1; }

 private:
  std::string_view bytes_;
  std::size_t piece_;
};

// What reading one response gives: its head and body, or the code of the first error.
std::string ReadResponse(std::string_view bytes, std::size_t piece) {
  PiecesStream stream(bytes, piece);
  mc::http::MessageReader reader(stream);
  const auto deadline = mc::http::Clock::now() + std::chrono::seconds(10);
  mc::Result<std::string> head = reader.ReadHead(8192, deadline);
  if (!head) return "head error " + std::to_string(static_cast<int>(head.error_code()));
  mc::Result<mc::http::ResponseHead> parsed = mc::http::ParseResponseHead(*head);
  if (!parsed) return "parse error";
  mc::Result<mc::http::BodyFraming> framing = mc::http::ResponseBodyFraming(*parsed, "GET");
  if (!framing) return "framing error";
  mc::Result<std::string> body = reader.ReadBody(*framing, 1 << 16, deadline);
  if (!body) return *head + "body error " + std::to_string(static_cast<int>(body.error_code()));
  return *head + "body " + *body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t piece = 1 + data[0] % 64;
  const std::string_view message(reinterpret_cast<const char*>(data + 1), size - 1);
  if (ReadResponse(message, piece) != ReadResponse(message, message.size() + 1)) std::abort();
  return 0;
}
