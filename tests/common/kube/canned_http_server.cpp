#include "common/kube/canned_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace mc::kube::testing {

void CannedHttpServer::Send::operator()(const std::string& bytes) const {
  ::send(connection_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

CannedHttpServer::CannedHttpServer(Respond respond, AfterAnswer after)
    : respond_(std::move(respond)), after_(after) {
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
  for (std::thread& handler : handlers_) handler.join();
  ::close(listener_);
}

std::vector<std::string> CannedHttpServer::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

void CannedHttpServer::Serve() {
  // The poll's timeout lets the destructor end the loop.
  while (!done_) {
    pollfd ready{listener_, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    ++accepted_;
    // Each piece `respond` sends leaves at once, so that a test's pieces arrive as pieces.
    const int yes = 1;
    ::setsockopt(connection, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    handlers_.emplace_back([this, connection] {
      Handle(connection);
      ::close(connection);
    });
  }
}

bool CannedHttpServer::ReadRequest(int connection, std::string& pending, std::string& request) {
  char buffer[4096];
  // Read the head, then as much body as Content-Length says.
  std::size_t wanted = std::string::npos;
  while (!done_) {
    const std::size_t head_end = pending.find("\r\n\r\n");
    if (head_end != std::string::npos && wanted == std::string::npos) {
      std::size_t body = 0;
      const std::size_t field = pending.find("Content-Length: ");
      if (field != std::string::npos && field < head_end)
        body = std::strtoul(pending.c_str() + field + 16, nullptr, 10);
      wanted = head_end + 4 + body;
    }
    if (wanted != std::string::npos && pending.size() >= wanted) {
      request = pending.substr(0, wanted);
      pending.erase(0, wanted);
      return true;
    }
    pollfd ready{connection, POLLIN, 0};
    if (::poll(&ready, 1, 50) <= 0) continue;
    const ssize_t got = ::recv(connection, buffer, sizeof buffer, 0);
    if (got <= 0) return false;
    pending.append(buffer, static_cast<std::size_t>(got));
  }
  return false;
}

void CannedHttpServer::Handle(int connection) {
  std::string pending;
  while (true) {
    std::string request;
    if (!ReadRequest(connection, pending, request)) return;
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(request);
    }
    bool close = false;
    respond_(request, Send(connection, &close));
    if (after_ == AfterAnswer::kHold) {
      while (!done_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (after_ != AfterAnswer::kKeepAlive || close) return;
  }
}

}  // namespace mc::kube::testing
