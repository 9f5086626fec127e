// The two halves of the HTTP the server speaks:
// - reading a request's method and path from its head;
// - writing a whole response.
//
// A probe or a scrape needs nothing more of HTTP/1.1. So nothing more is parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::http {

struct Response {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  // Further headers, each a name and a value the program wrote itself (never outside input):
  // a page's Content-Security-Policy.
  std::vector<std::pair<std::string, std::string>> headers;
};

struct RequestLine {
  std::string method;
  // The path without its query: "/readyz" of "/readyz?verbose".
  std::string path;
};

// HeadEnd: where the request's head ends, just past its blank line. Nothing while it has not all
// arrived.
std::optional<std::size_t> HeadEnd(std::string_view received);

// ParseRequestLine reads "GET /status HTTP/1.1". Nothing for a line of another shape.
std::optional<RequestLine> ParseRequestLine(std::string_view head);

// ReasonPhrase is the status's standard phrase ("Not Found").
std::string_view ReasonPhrase(int status);

// ResponseText: the whole response as sent, closing the connection after it. `allow` fills the
// Allow header a 405 must carry.
std::string ResponseText(const Response& response, std::string_view allow = "");

}  // namespace mc::http
