// StreamedBody follows a response body as its bytes come off the connection. It gives the body's
// own bytes piece by piece. That is for a watch, whose body has no end to wait for. The framing
// (RFC 9112 section 6) says where the body ends: a length, the last chunk, or the close.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/message_head.h"

namespace mc::http {

class StreamedBody {
 public:
  explicit StreamedBody(const BodyFraming& framing);

  // Feed takes the next bytes read off the connection. It appends the body's own bytes to `body`,
  // chunked coding taken off. Bytes past the body's end are dropped. A malformed chunked coding is
  // invalid input naming what was wrong.
  Result<void> Feed(std::string_view wire, std::string& body);

  // Whether the framing says the body is whole.
  bool done() const;

  // Closed answers for the connection's end. Fine when the body runs until close or is whole.
  // Unavailable when more was due.
  Result<void> Closed() const;

 private:
  BodyFraming::Kind kind_;
  std::uint64_t left_;
  ChunkedDecoder chunked_;
};

}  // namespace mc::http
