#include "common/http/streamed_body.h"

#include <algorithm>

namespace mc::http {

using Kind = BodyFraming::Kind;

StreamedBody::StreamedBody(const BodyFraming& framing)
    : kind_(framing.kind), left_(framing.kind == Kind::kLength ? framing.length : 0) {}

Result<void> StreamedBody::Feed(std::string_view wire, std::string& body) {
  switch (kind_) {
    case Kind::kNone:
      return Ok();
    case Kind::kLength: {
      const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(left_, wire.size()));
      body.append(wire.substr(0, take));
      left_ -= take;
      return Ok();
    }
    case Kind::kChunked: {
      if (chunked_.done()) return Ok();
      Result<std::size_t> used = chunked_.Feed(wire, &body);
      if (!used) return used.error();
      return Ok();
    }
    case Kind::kUntilClose:
      body.append(wire);
      return Ok();
  }
  return Ok();
}

bool StreamedBody::done() const {
  switch (kind_) {
    case Kind::kNone:
      return true;
    case Kind::kLength:
      return left_ == 0;
    case Kind::kChunked:
      return chunked_.done();
    case Kind::kUntilClose:
      return false;
  }
  return true;
}

Result<void> StreamedBody::Closed() const {
  if (kind_ == Kind::kUntilClose || done()) return Ok();
  if (kind_ == Kind::kLength)
    return Unavailable("the connection closed " + std::to_string(left_) +
                       " bytes before the end of the body");
  return Unavailable("the connection closed within the chunked body");
}

}  // namespace mc::http
