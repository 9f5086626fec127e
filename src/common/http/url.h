// An absolute http or https URL taken apart. Examples: the PeerTube server the gate forwards to,
// the API a client asks. It keeps only what a client needs to connect and write a request line.
// User information is refused, not silently sent along.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::http {

struct Url {
  // "http" or "https", in lower case.
  std::string scheme;
  // The host as written, lower case, IPv6 without brackets ("::1").
  std::string host;
  // The port as written, else the scheme's default: 80, 443.
  int port = 0;
  // Everything from the first "/" on: "/api/v1/config?x=1". "/" without a path.
  std::string path_and_query;

  // Origin is "scheme://host[:port]": what a URL of this server starts with. The port is left out
  // when it is the scheme's default. An IPv6 host is in brackets.
  std::string Origin() const;
  // HostHeader: the Host header's value, host with ":port" unless default.
  std::string HostHeader() const;
  std::string Text() const { return Origin() + path_and_query; }
};

// ParseUrl reads "http://host[:port][/path][?query]". A fragment is dropped. These are invalid
// input, naming the URL and what was wrong:
// - any other scheme;
// - a missing or malformed host;
// - a port outside 1..65535;
// - user information;
// - a control character.
Result<Url> ParseUrl(std::string_view text);

// UnderBase puts `path`, which starts with '/', under the base URL `base`. The base's trailing
// slashes are dropped. "https://tube.example/" and "/api/v1/config" give
// "https://tube.example/api/v1/config". An empty path gives the base without them.
std::string UnderBase(std::string_view base, std::string_view path);

// DefaultPort is 80 for http and 443 for https.
int DefaultPort(std::string_view scheme);

}  // namespace mc::http
