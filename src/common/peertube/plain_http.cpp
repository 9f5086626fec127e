#include "common/peertube/plain_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace mc::peertube {
namespace {

bool CrossesNetworkInClear(const http::Url& url) {
  return url.scheme == "http" && !IsLoopback(url.host);
}

}  // namespace

bool IsLoopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

Result<void> CheckPlainHttp(const http::Url& url, bool allowed, std::string_view secrets,
                            std::string_view allow_with) {
  if (!CrossesNetworkInClear(url) || allowed) return Ok();
  return InvalidInput(url.Origin() + " is plain http: " + std::string(secrets) +
                      " would cross the network in clear; use https, or " +
                      std::string(allow_with) + " where that network is private");
}

std::string PlainHttpWarning(const http::Url& url, std::string_view secrets,
                             std::string_view allowed_by) {
  if (!CrossesNetworkInClear(url)) return "";
  return "PeerTube at " + url.Origin() + " is reached without TLS (" + std::string(allowed_by) +
         "): " + std::string(secrets) + " cross the network in clear";
}

}  // namespace mc::peertube
