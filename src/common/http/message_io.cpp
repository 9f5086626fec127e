#include "common/http/message_io.h"

#include <algorithm>

#include "common/http/http_message.h"

namespace mc::http {
namespace {

constexpr std::size_t kReadSize = 64 * 1024;

}  // namespace

Result<bool> MessageReader::Fill(Deadline deadline) {
  char chunk[kReadSize];
  Result<std::size_t> got = stream_.Read(chunk, sizeof chunk, deadline);
  if (!got) return got.error();
  buffered_.append(chunk, *got);
  return *got > 0;
}

Result<std::string> MessageReader::ReadHead(std::size_t max_bytes, Deadline deadline) {
  while (true) {
    if (const std::optional<std::size_t> end = HeadEnd(buffered_); end && *end <= max_bytes) {
      std::string head = buffered_.substr(0, *end);
      buffered_.erase(0, *end);
      return head;
    }
    if (buffered_.size() > max_bytes)
      return InvalidInput("the message's head is larger than " + std::to_string(max_bytes) +
                          " bytes");
    Result<bool> more = Fill(deadline);
    if (!more) return more.error();
    if (!*more)
      return Unavailable(buffered_.empty() ? "the connection closed before a message"
                                           : "the connection closed within a message's head");
  }
}

Result<std::string> MessageReader::ReadBody(const BodyFraming& framing, std::size_t max_bytes,
                                            Deadline deadline) {
  using Kind = BodyFraming::Kind;
  std::string body;
  const std::string too_large = "the body is larger than " + std::to_string(max_bytes) + " bytes";
  switch (framing.kind) {
    case Kind::kNone:
      return body;
    case Kind::kLength: {
      if (framing.length > max_bytes) return InvalidInput(too_large);
      while (buffered_.size() < framing.length) {
        Result<bool> more = Fill(deadline);
        if (!more) return more.error();
        if (!*more) return Unavailable("the connection closed within the body");
      }
      body = buffered_.substr(0, framing.length);
      buffered_.erase(0, framing.length);
      return body;
    }
    case Kind::kChunked: {
      ChunkedDecoder decoder;
      while (true) {
        Result<std::size_t> used = decoder.Feed(buffered_, &body);
        if (!used) return used.error();
        buffered_.erase(0, *used);
        if (body.size() > max_bytes) return InvalidInput(too_large);
        if (decoder.done()) return body;
        Result<bool> more = Fill(deadline);
        if (!more) return more.error();
        if (!*more) return Unavailable("the connection closed within the chunked body");
      }
    }
    case Kind::kUntilClose: {
      while (true) {
        if (buffered_.size() > max_bytes) return InvalidInput(too_large);
        Result<bool> more = Fill(deadline);
        if (!more) return more.error();
        if (!*more) return std::exchange(buffered_, std::string());
      }
    }
  }
  return body;
}

Result<void> MessageReader::RelayBody(const BodyFraming& framing, Stream& to,
                                      std::chrono::milliseconds idle, std::uint64_t& relayed) {
  using Kind = BodyFraming::Kind;
  relayed = 0;
  std::uint64_t left = framing.length;
  ChunkedDecoder decoder;
  if (framing.kind == Kind::kNone) return Ok();
  while (true) {
    // What of the buffer belongs to this body.
    std::size_t take = buffered_.size();
    if (framing.kind == Kind::kLength) {
      take = static_cast<std::size_t>(std::min<std::uint64_t>(left, take));
      left -= take;
    } else if (framing.kind == Kind::kChunked) {
      Result<std::size_t> used = decoder.Feed(buffered_, nullptr);
      if (!used) return used.error();
      take = *used;
    }
    if (take > 0) {
      if (Result<void> written =
              to.Write(std::string_view(buffered_).substr(0, take), Clock::now() + idle);
          !written)
        return written.error();
      buffered_.erase(0, take);
      relayed += take;
    }
    if ((framing.kind == Kind::kLength && left == 0) ||
        (framing.kind == Kind::kChunked && decoder.done()))
      return Ok();
    Result<bool> more = Fill(Clock::now() + idle);
    if (!more) return more.error();
    if (!*more) {
      if (framing.kind == Kind::kUntilClose) return Ok();
      return Unavailable("the connection closed within the body, after " + std::to_string(relayed) +
                         " bytes");
    }
  }
}

}  // namespace mc::http
