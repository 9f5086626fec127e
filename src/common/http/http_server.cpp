#include "common/http/http_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/base/text.h"
#include "common/http/message_io.h"

namespace mc::http {
namespace {

using Clock = std::chrono::steady_clock;

IoStep OfSystemCall(ssize_t result, short wait) {
  if (result > 0) return {.bytes = static_cast<std::size_t>(result)};
  if (result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return {.wait = wait};
  return {.end = true};
}

}  // namespace

struct Server::Connection {
  enum class Phase { kReading, kWriting, kLingering };

  int fd = -1;
  Phase phase = Phase::kReading;
  std::string received;
  std::string answer;
  std::size_t sent = 0;
  Clock::time_point deadline;
  // An HTTPS connection's TLS, and what it last waited for. That need not match the phase: a
  // handshake writes while the request is read.
  std::unique_ptr<TlsAccepted> tls;
  short wait = 0;

  // Receive and Send move bytes over the socket, or through TLS.
  IoStep Receive(char* data, std::size_t size) {
    const IoStep step = tls ? tls->Read(data, size) : OfSystemCall(read(fd, data, size), POLLIN);
    wait = step.wait;
    return step;
  }
  IoStep Send(std::string_view data) {
    const IoStep step =
        tls ? tls->Write(data)
            : OfSystemCall(send(fd, data.data(), data.size(), MSG_NOSIGNAL), POLLOUT);
    wait = step.wait;
    return step;
  }
};

Result<std::unique_ptr<Server>> Server::Start(const std::string& address, Routes routes,
                                              Limits limits, Actions actions,
                                              std::shared_ptr<const ServerTls> tls) {
  Result<Listener> listener = Listen(address);
  if (!listener) return listener.error();
  std::unique_ptr<Server> server(new Server());
  server->routes_ = std::move(routes);
  server->actions_ = std::move(actions);
  server->limits_ = limits;
  server->tls_ = std::move(tls);
  server->listener_ = *listener;
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(
      listener->fd, [raw = server.get()](ServerShell& shell) { raw->Serve(shell); });
  if (!shell) return shell.error();
  server->shell_ = std::move(shell).value();
  return server;
}

void Server::Serve(ServerShell& shell) const {
  std::map<int, Connection> connections;
  while (!shell.stopping()) {
    std::vector<pollfd> fds = shell.PollHead(true);
    Clock::time_point next = Clock::time_point::max();
    for (const auto& [fd, connection] : connections) {
      const short events = connection.wait                                   ? connection.wait
                           : connection.phase == Connection::Phase::kWriting ? POLLOUT
                                                                             : POLLIN;
      fds.push_back({.fd = fd, .events = events, .revents = 0});
      next = std::min(next, connection.deadline);
    }
    int timeout_ms = -1;
    if (next != Clock::time_point::max()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now());
      timeout_ms = static_cast<int>(std::max<std::int64_t>(0, left.count()));
    }
    if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) break;
    if (fds[0].revents) shell.wake()->Clear();
    if (fds[1].revents) Accept(shell, connections);

    const Clock::time_point now = Clock::now();
    for (std::size_t i = 2; i < fds.size(); ++i) {
      const auto found = connections.find(fds[i].fd);
      if (found == connections.end()) continue;
      Connection& connection = found->second;
      bool open = true;
      if (fds[i].revents) {
        switch (connection.phase) {
          case Connection::Phase::kReading:
            open = Read(connection);
            break;
          case Connection::Phase::kWriting:
            open = Write(connection);
            break;
          case Connection::Phase::kLingering:
            open = Drain(connection);
            break;
        }
      }
      if (open && now >= connection.deadline) {
        if (connection.phase == Connection::Phase::kReading) {
          Answer(connection, {.status = 408, .body = "the request did not arrive in time\n"});
          open = Write(connection);
        } else {
          open = false;
        }
      }
      if (!open) {
        const int fd = connection.fd;
        connections.erase(found);  // its TLS first, then the socket it uses
        close(fd);
      }
    }
  }
  for (auto& [fd, connection] : connections) {
    connection.tls.reset();
    close(fd);
  }
}

// Accept takes every waiting client and reads what each has sent. So a probe whose request came
// with its connection is answered here. At the limit, one connection makes room. It is the one that
// has waited longest without sending a whole request. So clients that hold connections and send
// nothing cannot keep a probe out. When every connection is sending its answer, the new one is
// closed.
void Server::Accept(const ServerShell& shell, std::map<int, Connection>& connections) const {
  while (true) {
    const int fd = shell.Accept();
    if (fd < 0) return;
    if (connections.size() >= limits_.max_connections && !DropLongestWaiting(connections)) {
      close(fd);
      continue;
    }
    Connection& connection = connections[fd];
    connection = Connection{.fd = fd, .deadline = Clock::now() + limits_.request_timeout};
    if (tls_) connection.tls = tls_->Accept(fd);
    if ((tls_ && !connection.tls) || !Read(connection)) {
      connections.erase(fd);
      close(fd);
    }
  }
}

bool Server::DropLongestWaiting(std::map<int, Connection>& connections) {
  auto longest = connections.end();
  for (auto it = connections.begin(); it != connections.end(); ++it) {
    if (it->second.phase == Connection::Phase::kWriting) continue;
    if (longest == connections.end() || it->second.deadline < longest->second.deadline)
      longest = it;
  }
  if (longest == connections.end()) return false;
  const int fd = longest->first;
  connections.erase(longest);
  close(fd);
  return true;
}

bool Server::Read(Connection& connection) const {
  char buffer[4096];
  while (true) {
    const IoStep got = connection.Receive(buffer, sizeof buffer);
    if (got.wait) return true;
    // The client closed before its request was whole. Nobody is left to answer.
    if (got.end) return false;
    connection.received.append(buffer, got.bytes);
    if (const std::optional<std::size_t> end = HeadEnd(connection.received);
        end && *end <= limits_.max_request_bytes) {
      const std::string_view head = std::string_view(connection.received).substr(0, *end);
      const Result<std::size_t> body_length = BodyLength(head);
      if (!body_length) {
        Answer(connection,
               {.status = body_length.error().code == ErrorCode::kUnsupported ? 411 : 400,
                .body = body_length.error_message() + "\n"});
        return Write(connection);
      }
      if (*end + *body_length > limits_.max_request_bytes) {
        Answer(connection, {.status = 413,
                            .body = "the request is larger than " +
                                    std::to_string(limits_.max_request_bytes) + " bytes\n"});
        return Write(connection);
      }
      // The body is still on its way.
      if (connection.received.size() < *end + *body_length) continue;
      std::string allow;
      const Response response =
          AnswerTo(head, std::string_view(connection.received).substr(*end, *body_length), allow);
      Answer(connection, response, allow);
      return Write(connection);
    }
    if (connection.received.size() > limits_.max_request_bytes) {
      Answer(connection, {.status = 431,
                          .body = "the request is larger than " +
                                  std::to_string(limits_.max_request_bytes) + " bytes\n"});
      return Write(connection);
    }
  }
}

Result<std::size_t> Server::BodyLength(std::string_view head) const {
  const std::optional<RequestLine> request = ParseRequestLine(head);
  if (!request || request->method != "POST" || !actions_.contains(request->path))
    return std::size_t{0};
  Result<RequestHead> parsed = ParseRequestHead(head);
  if (!parsed) return InvalidInput("the request's head is not HTTP: " + parsed.error_message());
  // A chunked body read as none would be an empty action body. That may mean "everything", as for
  // an eligibility. So it is refused, not read.
  if (!HeaderValue(parsed->headers, "Transfer-Encoding").empty())
    return Unsupported("a body with a Transfer-Encoding is not read here: send a Content-Length");
  const std::string length(HeaderValue(parsed->headers, "Content-Length"));
  if (length.empty()) return std::size_t{0};
  const std::optional<std::size_t> value =
      length.size() > 9 ? std::nullopt : ParseInteger<std::size_t>(length);
  if (!value) return InvalidInput("the Content-Length is not a number");
  return *value;
}

Response Server::AnswerTo(std::string_view head, std::string_view body, std::string& allow) const {
  const std::optional<RequestLine> request = ParseRequestLine(head);
  if (!request) return {.status = 400, .body = "not an HTTP request line\n"};
  const auto route = routes_.find(request->path);
  const auto action = actions_.find(request->path);
  // A handler that throws answers 500. The server goes on serving the others.
  try {
    if (request->method == "GET" && route != routes_.end()) return route->second();
    if (request->method == "POST" && action != actions_.end()) {
      Result<RequestHead> parsed = ParseRequestHead(head);
      return action->second(
          {.path = request->path,
           .authorization =
               parsed ? std::string(HeaderValue(parsed->headers, "Authorization")) : "",
           .body = std::string(body)});
    }
  } catch (const std::exception& error) {
    return {.status = 500,
            .body = "the server failed to answer: " + Excerpt(error.what(), 200) + "\n"};
  }
  if (route == routes_.end() && action == actions_.end())
    return {.status = 404, .body = "not found\n"};
  allow = route != routes_.end() ? "GET" : "POST";
  return {.status = 405, .body = "only " + allow + " is served at " + request->path + "\n"};
}

void Server::Answer(Connection& connection, const Response& response,
                    std::string_view allow) const {
  connection.phase = Connection::Phase::kWriting;
  connection.answer = ResponseText(response, allow);
  connection.sent = 0;
  connection.received.clear();
  connection.deadline = Clock::now() + limits_.request_timeout;
}

bool Server::Write(Connection& connection) const {
  while (connection.sent < connection.answer.size()) {
    const IoStep sent =
        connection.Send(std::string_view(connection.answer).substr(connection.sent));
    if (sent.wait) return true;
    if (sent.end) return false;
    connection.sent += sent.bytes;
  }
  if (connection.tls) connection.tls->Shutdown();
  connection.wait = 0;
  shutdown(connection.fd, SHUT_WR);
  connection.phase = Connection::Phase::kLingering;
  connection.deadline = Clock::now() + std::min(kLingerAfterAnswer, limits_.request_timeout);
  return true;
}

bool Server::Drain(Connection& connection) const {
  // A few reads a turn, so a client that keeps sending cannot hold the loop. The linger deadline
  // ends it.
  char buffer[4096];
  for (int turn = 0; turn < 16; ++turn) {
    const IoStep got = connection.Receive(buffer, sizeof buffer);
    if (got.wait) return true;
    if (got.end) return false;
  }
  return true;
}

}  // namespace mc::http
