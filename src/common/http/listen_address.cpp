#include "common/http/listen_address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mc::http {

std::string ListenHost(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  std::string host = address.substr(0, colon == std::string::npos ? address.size() : colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  return host;
}

Result<Listener> Listen(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size()) {
    return InvalidInput(address + " is not HOST:PORT");
  }
  const std::string host = ListenHost(address);
  const std::string port = address.substr(colon + 1);

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int status =
          getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found);
      status != 0) {
    return InvalidInput(address + ": " + gai_strerror(status));
  }
  Listener listener;
  listener.fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  const int yes = 1;
  if (listener.fd >= 0) setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  // The kernel's largest backlog. A flood of connections can fill a short one. The kernel then
  // drops a probe's SYN. Its client sends it again only a second later.
  if (listener.fd < 0 || bind(listener.fd, found->ai_addr, found->ai_addrlen) != 0 ||
      listen(listener.fd, SOMAXCONN) != 0) {
    const int error = errno;
    freeaddrinfo(found);
    if (listener.fd >= 0) close(listener.fd);
    const std::string message = "listening on " + address + ": " + std::strerror(error);
    // A port another program holds: the caller says which flag or setting picks another.
    if (error == EADDRINUSE) return Conflict(message);
    return Unavailable(message);
  }
  freeaddrinfo(found);

  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  getsockname(listener.fd, reinterpret_cast<sockaddr*>(&bound), &length);
  char text[INET6_ADDRSTRLEN] = {};
  if (bound.ss_family == AF_INET6) {
    const auto* ipv6 = reinterpret_cast<const sockaddr_in6*>(&bound);
    inet_ntop(AF_INET6, &ipv6->sin6_addr, text, sizeof text);
    listener.port = ntohs(ipv6->sin6_port);
  } else {
    const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(&bound);
    inet_ntop(AF_INET, &ipv4->sin_addr, text, sizeof text);
    listener.port = ntohs(ipv4->sin_port);
  }
  listener.host = text;
  return listener;
}

std::string BoundAddress(const Listener& listener) {
  const bool ipv6 = listener.host.find(':') != std::string::npos;
  return (ipv6 ? "[" + listener.host + "]" : listener.host) + ":" + std::to_string(listener.port);
}

}  // namespace mc::http
