// Server answers over HTTP/1.1, one answer per connection, on a thread of its own. It answers:
// - GET requests by path: the agent's liveness and readiness probes, the worker's /status and
//   /metrics;
// - POST requests with a small body to the paths given as actions: the worker's control API, on its
//   own listener.
//
// Given a certificate and key, it speaks HTTPS (server_tls.h). It is a few hundred lines on
// purpose. A probe, a scrape or a command needs little: a request line, a header or two, a small
// body and one whole answer. A library for that would be the largest part of the agent.
//
// A client cannot stop it:
// - connections are served side by side from one poll loop;
// - each request must arrive whole within the request timeout and size limit, else 408 or 431;
// - the loop holds a bounded number of connections at once.
//
// At the limit, the one that has waited longest for its request is closed to make room. Destroying
// the server stops it at once.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/base/result.h"
#include "common/base/server_shell.h"
#include "common/http/http_message.h"
#include "common/http/listen_address.h"
#include "common/http/message_head.h"
#include "common/http/server_tls.h"

namespace mc::http {

struct Limits {
  // The request's head: request line and headers. A larger one is answered 431.
  std::size_t max_request_bytes = 8192;
  // From accepting a connection until its request has arrived whole. Again for sending the answer.
  // A slower client is answered 408, or dropped.
  std::chrono::milliseconds request_timeout{2000};
  std::size_t max_connections = 32;
};

// A route answers a GET of its path. It runs on the server's thread, so it must answer at once. It
// answers from what another thread gathered, never by gathering itself.
using Route = std::function<Response()>;
using Routes = std::map<std::string, Route, std::less<>>;

// A POST request as an action sees it: one header it may need, and the whole body.
struct ActionRequest {
  std::string path;
  // The Authorization header's value; empty when it had none.
  std::string authorization;
  std::string body;
};

// An action answers a POST of its path. Like a route, it runs on the server's thread and must
// answer at once.
using Action = std::function<Response(const ActionRequest&)>;
using Actions = std::map<std::string, Action, std::less<>>;

class Server {
 public:
  // Start listens on `address` ("HOST:PORT"; port 0 picks a free one). It serves `routes` until the
  // server is destroyed. Any other path is 404, any other method 405. `actions` answer POSTs of
  // their paths. The request and its body must fit in max_request_bytes together, else 413. With
  // `tls`, every connection speaks HTTPS.
  static Result<std::unique_ptr<Server>> Start(const std::string& address, Routes routes,
                                               Limits limits = {}, Actions actions = {},
                                               std::shared_ptr<const ServerTls> tls = nullptr);
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The address it listens on, as bound: "127.0.0.1:41523".
  std::string address() const { return BoundAddress(listener_); }
  const std::string& host() const { return listener_.host; }
  int port() const { return listener_.port; }

 private:
  struct Connection;

  Server() = default;
  void Serve(ServerShell& shell) const;
  void Accept(const ServerShell& shell, std::map<int, Connection>& connections) const;
  // Closes the connection that has waited longest for its request. False when every one is sending
  // its answer.
  static bool DropLongestWaiting(std::map<int, Connection>& connections);
  // Each step below advances one connection. False means it is done and closed.
  bool Read(Connection& connection) const;
  bool Write(Connection& connection) const;
  bool Drain(Connection& connection) const;
  void Answer(Connection& connection, const Response& response, std::string_view allow = "") const;
  Response AnswerTo(std::string_view head, std::string_view body, std::string& allow) const;
  // How many body bytes the request with head `head` carries. An action's POST carries its
  // Content-Length. Others carry none. An error when the length is not a number. A chunked body is
  // an error too (kUnsupported).
  Result<std::size_t> BodyLength(std::string_view head) const;

  Routes routes_;
  Actions actions_;
  Limits limits_;
  std::shared_ptr<const ServerTls> tls_;
  Listener listener_;
  // Last, so it stops before the members its loop reads go.
  std::unique_ptr<ServerShell> shell_;
};

}  // namespace mc::http
