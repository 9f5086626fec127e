// The heads of HTTP/1.1 messages as values, for a client and a proxy that pass them on. A head
// holds:
// - the request line or status line;
// - the headers, in their order and spelling;
// - how long the body that follows is (RFC 9112 section 6).
//
// Parsing is strict where a wrong guess would let one message be read as two. Examples: conflicting
// lengths, a malformed chunk. It is lenient nowhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::http {

struct Header {
  std::string name;
  std::string value;
};
using Headers = std::vector<Header>;

// HeaderValue: the first header named `name`, any case. "" when there is none.
std::string_view HeaderValue(const Headers& headers, std::string_view name);
// HasHeader: whether any header named `name` is present.
bool HasHeader(const Headers& headers, std::string_view name);
// HasToken: whether a header named `name` lists `token` among its comma-separated values.
// Case-insensitive. Example: HasToken(headers, "Connection", "upgrade").
bool HasToken(const Headers& headers, std::string_view name, std::string_view token);
// SetHeader replaces all headers named `name` by one with `value`. It goes at the first one's
// place, or at the end.
void SetHeader(Headers& headers, std::string_view name, std::string value);
void RemoveHeader(Headers& headers, std::string_view name);

struct RequestHead {
  std::string method;
  // The request target as sent: "/api/v1/runners/jobs/request?x=1".
  std::string target;
  std::string version = "HTTP/1.1";
  Headers headers;

  // The target's path, without query or fragment.
  std::string Path() const;
};

struct ResponseHead {
  std::string version = "HTTP/1.1";
  int status = 200;
  std::string reason;
  Headers headers;
};

// Both parsers take the whole head, with or without its blank line. They name what was wrong.
Result<RequestHead> ParseRequestHead(std::string_view head);
Result<ResponseHead> ParseResponseHead(std::string_view head);

// The head's text as sent, ending with its blank line.
std::string RequestHeadText(const RequestHead& head);
std::string ResponseHeadText(const ResponseHead& head);

struct BodyFraming {
  enum class Kind { kNone, kLength, kChunked, kUntilClose };
  Kind kind = Kind::kNone;
  std::uint64_t length = 0;
};

// A request has a body only when it says so: Content-Length, or chunked coding.
Result<BodyFraming> RequestBodyFraming(const RequestHead& head);
// A response to HEAD, a 1xx, 204 or 304 has none. One with neither length nor chunked coding runs
// until the server closes.
Result<BodyFraming> ResponseBodyFraming(const ResponseHead& head, std::string_view method);

// ChunkedDecoder follows a chunked body as it arrives. A proxy learns where it ends while passing
// the bytes on unchanged. A client gets the body itself.
class ChunkedDecoder {
 public:
  // Feed reads from `data` up to the end of the body, no further. It appends the body's bytes to
  // `body`, when given. It returns how many bytes of `data` it consumed.
  Result<std::size_t> Feed(std::string_view data, std::string* body);
  bool done() const { return state_ == State::kDone; }

 private:
  enum class State { kSize, kData, kDataEnd, kTrailer, kDone };
  State state_ = State::kSize;
  std::string line_;
  std::uint64_t left_ = 0;
  std::size_t trailer_bytes_ = 0;
};

}  // namespace mc::http
