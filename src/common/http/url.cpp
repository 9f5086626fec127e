#include "common/http/url.h"

#include <algorithm>
#include <cctype>

#include "common/base/text.h"

namespace mc::http {
namespace {

bool IsHostCharacter(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '%' || c == '~';
}

Error Bad(std::string_view text, const std::string& what) {
  return InvalidInput("URL \"" + Excerpt(text, 200) + "\": " + what);
}

}  // namespace

int DefaultPort(std::string_view scheme) { return scheme == "https" ? 443 : 80; }

std::string Url::HostHeader() const {
  const std::string bracketed = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return port == DefaultPort(scheme) ? bracketed : bracketed + ":" + std::to_string(port);
}

std::string Url::Origin() const { return scheme + "://" + HostHeader(); }

std::string UnderBase(std::string_view base, std::string_view path) {
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  return std::string(base) + std::string(path);
}

Result<Url> ParseUrl(std::string_view text) {
  for (const unsigned char c : text) {
    if (c <= 0x20 || c == 0x7f) return Bad(text, "holds a space or a control character");
  }
  const std::size_t scheme_end = text.find("://");
  if (scheme_end == std::string_view::npos) return Bad(text, "has no scheme (http:// or https://)");
  Url url;
  url.scheme = AsciiLower(text.substr(0, scheme_end));
  if (url.scheme != "http" && url.scheme != "https")
    return Bad(text, "the scheme \"" + url.scheme + "\" is neither http nor https");

  std::string_view rest = text.substr(scheme_end + 3);
  const std::size_t authority_end = rest.find_first_of("/?#");
  const std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos)
    return Bad(text, "user information (\"user@\") is not accepted");

  std::string_view host;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return Bad(text, "the IPv6 host has no closing \"]\"");
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Bad(text, "unexpected text after the IPv6 host");
      port = after.substr(1);
      if (port.empty()) return Bad(text, "the port after \":\" is empty");
    }
    if (host.empty() ||
        host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos)
      return Bad(text, "the IPv6 host is not an IPv6 address");
  } else {
    const std::size_t colon = authority.rfind(':');
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return Bad(text, "the port after \":\" is empty");
    }
    if (host.empty()) return Bad(text, "has no host");
    if (!std::all_of(host.begin(), host.end(), IsHostCharacter))
      return Bad(text, "the host \"" + std::string(host) + "\" holds a character hosts do not");
  }
  url.host = AsciiLower(host);

  url.port = DefaultPort(url.scheme);
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return Bad(text, "the port \"" + std::string(port) + "\" is not a number");
    url.port = ParseInteger<int>(port).value_or(0);
    if (url.port < 1 || url.port > 65535)
      return Bad(text, "the port " + std::string(port) + " is outside 1..65535");
  }

  // The fragment belongs to the client alone. It is never sent.
  rest = rest.substr(0, rest.find('#'));
  if (rest.empty()) {
    url.path_and_query = "/";
  } else if (rest.front() == '?') {
    url.path_and_query = "/" + std::string(rest);
  } else {
    url.path_and_query = std::string(rest);
  }
  return url;
}

}  // namespace mc::http
