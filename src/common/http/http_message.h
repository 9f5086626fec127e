// The two halves of the HTTP the server speaks: reading a request's method and path from its
// head, and writing a whole response. Nothing of HTTP/1.1 beyond that is needed to answer a
// probe or a scrape, so nothing more is parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mc::http {

struct Response {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

struct RequestLine {
  std::string method;
  // The path without its query: "/readyz" of "/readyz?verbose".
  std::string path;
};

// HeadEnd is where the request's head ends (just past its blank line), or nothing while it
// has not all arrived.
std::optional<std::size_t> HeadEnd(std::string_view received);

// ParseRequestLine reads "GET /status HTTP/1.1"; nothing when the line is not of that shape.
std::optional<RequestLine> ParseRequestLine(std::string_view head);

// ReasonPhrase is the status's standard phrase ("Not Found").
std::string_view ReasonPhrase(int status);

// ResponseText is the whole response as sent, closing the connection after it; `allow` fills
// the Allow header that a 405 must carry.
std::string ResponseText(const Response& response, std::string_view allow = "");

}  // namespace mc::http
