// An absolute http or https URL taken apart: the PeerTube server the gate forwards to, the
// API a client asks. Only what a client needs to open a connection and write a request line
// is kept; user information is refused rather than silently sent along.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::http {

struct Url {
  // "http" or "https", in lower case.
  std::string scheme;
  // The host as written, without brackets for IPv6 ("::1"), in lower case.
  std::string host;
  // The port as written, else the scheme's default (80, 443).
  int port = 0;
  // Everything from the first "/" on, "/" when the URL has no path: "/api/v1/config?x=1".
  std::string path_and_query;

  // Origin is "scheme://host[:port]", the port left out when it is the scheme's default and
  // the IPv6 host in brackets: what a URL of this server starts with.
  std::string Origin() const;
  // HostHeader is the Host header's value for this URL: host, with ":port" unless default.
  std::string HostHeader() const;
  std::string Text() const { return Origin() + path_and_query; }
};

// ParseUrl reads "http://host[:port][/path][?query]"; a fragment is dropped. Any other
// scheme, a missing or malformed host, a port outside 1..65535, user information or a
// control character is invalid input naming the URL and what was wrong.
Result<Url> ParseUrl(std::string_view text);

// UnderBase is `path` (which starts with '/') under the base URL `base`, whose trailing
// slashes are dropped: "https://tube.example/" and "/api/v1/config" give
// "https://tube.example/api/v1/config"; an empty path gives the base without them.
std::string UnderBase(std::string_view base, std::string_view path);

// DefaultPort is 80 for http and 443 for https.
int DefaultPort(std::string_view scheme);

}  // namespace mc::http
