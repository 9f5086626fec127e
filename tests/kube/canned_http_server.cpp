#include "kube/canned_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace mc::kube::testing {

CannedHttpServer::CannedHttpServer(Respond respond, bool hold)
    : respond_(std::move(respond)), hold_(hold) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener_ < 0 ||
      ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_, 16) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("CannedHttpServer: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

CannedHttpServer::~CannedHttpServer() {
  done_ = true;
  thread_.join();
  ::close(listener_);
}

std::vector<std::string> CannedHttpServer::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

void CannedHttpServer::Serve() {
  // One connection at a time is enough for these tests; the poll's timeout lets the
  // destructor end the loop.
  while (!done_) {
    pollfd ready{listener_, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    Handle(connection);
    ::close(connection);
  }
}

void CannedHttpServer::Handle(int connection) {
  std::string request;
  char buffer[4096];
  // Read the head, then as much body as Content-Length says.
  std::size_t wanted = std::string::npos;
  while (!done_) {
    const std::size_t head_end = request.find("\r\n\r\n");
    if (head_end != std::string::npos && wanted == std::string::npos) {
      std::size_t body = 0;
      const std::size_t field = request.find("Content-Length: ");
      if (field != std::string::npos && field < head_end)
        body = std::strtoul(request.c_str() + field + 16, nullptr, 10);
      wanted = head_end + 4 + body;
    }
    if (wanted != std::string::npos && request.size() >= wanted) break;
    pollfd ready{connection, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    const ssize_t got = ::recv(connection, buffer, sizeof buffer, 0);
    if (got <= 0) return;
    request.append(buffer, static_cast<std::size_t>(got));
  }
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
  }
  respond_(request, [connection](const std::string& bytes) {
    ::send(connection, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  });
  while (hold_ && !done_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace mc::kube::testing
