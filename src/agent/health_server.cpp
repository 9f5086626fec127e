#include "agent/health_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mc {
namespace {

// A probe's request must arrive within this; a client that sends nothing is dropped.
constexpr int kRequestTimeoutMs = 2000;

std::string RequestPath(const std::string& request) {
  // "GET /readyz HTTP/1.1"
  const std::size_t first = request.find(' ');
  if (first == std::string::npos) return "";
  const std::size_t second = request.find_first_of(" ?", first + 1);
  return request.substr(first + 1,
                        second == std::string::npos ? std::string::npos : second - first - 1);
}

}  // namespace

Result<std::unique_ptr<HealthServer>> HealthServer::Start(const std::string& address,
                                                          HealthChecks checks) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) return Error{"--health-address " + address + " is not HOST:PORT"};
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string port = address.substr(colon + 1);

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int status =
          getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found);
      status != 0) {
    return Error{"--health-address " + address + ": " + gai_strerror(status)};
  }
  std::unique_ptr<HealthServer> server(new HealthServer());
  server->checks_ = std::move(checks);
  server->listener_ = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int yes = 1;
  if (server->listener_ >= 0)
    setsockopt(server->listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (server->listener_ < 0 || bind(server->listener_, found->ai_addr, found->ai_addrlen) != 0 ||
      listen(server->listener_, 16) != 0) {
    const std::string why = std::strerror(errno);
    freeaddrinfo(found);
    return Error{"listening on " + address + " for the health probes: " + why};
  }
  freeaddrinfo(found);
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  getsockname(server->listener_, reinterpret_cast<sockaddr*>(&bound), &length);
  server->port_ =
      ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                        : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  server->wake_ = eventfd(0, EFD_CLOEXEC);
  server->thread_ = std::thread([raw = server.get()] { raw->Serve(); });
  return server;
}

HealthServer::~HealthServer() {
  if (thread_.joinable()) {
    const std::uint64_t one = 1;
    [[maybe_unused]] ssize_t written = write(wake_, &one, sizeof one);
    thread_.join();
  }
  if (listener_ >= 0) close(listener_);
  if (wake_ >= 0) close(wake_);
}

void HealthServer::Serve() {
  while (true) {
    pollfd fds[2] = {{.fd = listener_, .events = POLLIN, .revents = 0},
                     {.fd = wake_, .events = POLLIN, .revents = 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    const int connection = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    Answer(connection);
    close(connection);
  }
}

void HealthServer::Answer(int connection) const {
  std::string request;
  char buffer[1024];
  while (request.find("\r\n") == std::string::npos && request.size() < 8192) {
    pollfd fd{.fd = connection, .events = POLLIN, .revents = 0};
    if (poll(&fd, 1, kRequestTimeoutMs) <= 0) return;
    const ssize_t got = read(connection, buffer, sizeof buffer);
    if (got <= 0) return;
    request.append(buffer, static_cast<std::size_t>(got));
  }
  const std::string path = RequestPath(request);
  ProbeAnswer answer{.ok = false, .text = "not found"};
  int status = 404;
  if (path == "/livez" || path == "/readyz") {
    answer = path == "/livez" ? checks_.live() : checks_.ready();
    status = answer.ok ? 200 : 503;
  }
  const std::string body = answer.text + "\n";
  const std::string response = "HTTP/1.1 " + std::to_string(status) +
                               (status == 200   ? " OK"
                                : status == 404 ? " Not Found"
                                                : " Service Unavailable") +
                               "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  std::size_t sent = 0;
  while (sent < response.size()) {
    const ssize_t n =
        send(connection, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

}  // namespace mc
