#include "worker/daemon/local_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

#include "common/base/text.h"
#include "worker/daemon/local_socket.h"

namespace mc::worker {
namespace {

// A request line is small. A client that sends more without a newline is not speaking the protocol.
// It is disconnected. So is one that lets its answers pile up unread.
constexpr std::size_t kMaxRequestBytes = 256 * 1024;
constexpr std::size_t kMaxUnsentBytes = 256 * 1024;
constexpr std::size_t kMaxConnections = 256;

// Whether the peer runs as this process's user (or as root). The socket's mode lets the group
// connect. Only the worker's own user may speak: its runner and the runner's ffmpeg.
bool PeerIsOurs(int fd) {
  ucred peer{};
  socklen_t length = sizeof peer;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) return false;
  return peer.uid == geteuid() || peer.uid == 0;
}

struct Connection {
  std::uint64_t id = 0;
  std::string received;
  std::string unsent;
};

void SendAll(int fd, Connection& connection) {
  while (!connection.unsent.empty()) {
    const ssize_t n =
        send(fd, connection.unsent.data(), connection.unsent.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) return;
    connection.unsent.erase(0, static_cast<std::size_t>(n));
  }
}

}  // namespace

Result<std::unique_ptr<LocalServer>> LocalServer::Start(const std::string& path, Handler handler,
                                                        Closed closed) {
  Result<int> listener = ListenLocal(path);
  if (!listener) return listener.error();
  std::unique_ptr<LocalServer> server(new LocalServer());
  server->path_ = path;
  server->handler_ = std::move(handler);
  server->closed_ = std::move(closed);
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(
      *listener, [raw = server.get()](ServerShell& shell) { raw->Serve(shell); });
  if (!shell) return shell.error();
  server->shell_ = std::move(shell).value();
  return server;
}

LocalServer::~LocalServer() {
  shell_.reset();
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

LocalAnswer LocalServer::AnswerLine(std::uint64_t connection, const std::string& line) const {
  Result<LocalRequest> request = ParseLocalRequest(line);
  if (!request) return {.ok = false, .message = "bad request: " + request.error_message()};
  try {
    return handler_(connection, *request);
  } catch (const std::exception& error) {
    return {.ok = false, .message = "the worker failed to answer: " + Excerpt(error.what(), 200)};
  }
}

void LocalServer::Serve(ServerShell& shell) const {
  std::map<int, Connection> connections;
  std::uint64_t next_id = 1;
  while (!shell.stopping()) {
    std::vector<pollfd> fds = shell.PollHead(connections.size() < kMaxConnections);
    for (const auto& [fd, connection] : connections) {
      const short events = connection.unsent.empty() ? POLLIN : (POLLIN | POLLOUT);
      fds.push_back({.fd = fd, .events = events, .revents = 0});
    }
    if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
    if (fds[0].revents) shell.wake()->Clear();
    if (fds[1].revents) {
      while (connections.size() < kMaxConnections) {
        const int fd = shell.Accept();
        if (fd < 0) break;
        if (!PeerIsOurs(fd)) {
          close(fd);
          continue;
        }
        connections[fd] = Connection{.id = next_id++};
      }
    }
    for (std::size_t i = 2; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      const auto found = connections.find(fds[i].fd);
      if (found == connections.end()) continue;
      Connection& connection = found->second;
      bool open = true;
      if (fds[i].revents & POLLOUT) SendAll(found->first, connection);
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buffer[4096];
        const ssize_t got = read(found->first, buffer, sizeof buffer);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
          open = false;
        } else if (got > 0) {
          connection.received.append(buffer, static_cast<std::size_t>(got));
        }
        std::size_t end = 0;
        while (open && (end = connection.received.find('\n')) != std::string::npos) {
          const std::string line = connection.received.substr(0, end);
          connection.received.erase(0, end + 1);
          const LocalAnswer answer = AnswerLine(connection.id, line);
          connection.unsent += LocalAnswerLine(answer);
          SendAll(found->first, connection);
        }
        if (connection.received.size() > kMaxRequestBytes) open = false;
        if (connection.unsent.size() > kMaxUnsentBytes) open = false;
      }
      if (!open) {
        close(found->first);
        closed_(connection.id);
        connections.erase(found);
      }
    }
  }
  for (const auto& [fd, connection] : connections) {
    close(fd);
    closed_(connection.id);
  }
}

}  // namespace mc::worker
