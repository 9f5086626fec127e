// ReverseProxy passes HTTP/1.1 requests on to one upstream server, http or https, and lets a
// hook decide, request by request, how: stream it both ways untouched, tunnel a WebSocket,
// hold it whole so that the answer can be rewritten, or answer it here. The worker's
// admission gate is its one user (src/worker/gate/admission_gate.h).
//
// Each client connection carries one request: the request goes up with "Connection: close"
// and the answer comes down with it, and the connection closes after the answer. A
// keep-alive client then opens a new connection for its next request, which every HTTP/1.1
// client does on "Connection: close"; in exchange the proxy never has to find where one
// client's request ends and the next begins on a reused upstream connection.
//
// Each connection is served on a thread of its own, so a slow client (or a slow upload, or a
// two-hour download) holds only its own thread; the number of connections served at once is
// bounded, the rest wait in the kernel's backlog. Destroying the proxy interrupts every
// connection and returns once their threads have ended.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "common/base/result.h"
#include "common/base/server_shell.h"
#include "common/http/listen_address.h"
#include "common/http/message_head.h"
#include "common/http/transport.h"
#include "common/http/url.h"

namespace mc::http {

// A request as the hook sees it: the head as the client sent it, and the body when the
// request is intercepted (held whole).
struct ProxyRequest {
  RequestHead head;
  std::string body;
};

struct ProxyResponse {
  ResponseHead head;
  std::string body;
};

enum class Handling {
  // Stream the request up and the answer down as they arrive; a WebSocket upgrade is
  // tunnelled both ways once the upstream has answered 101.
  kForward,
  // Hold the request's body and the answer's whole (bounded), and let the hook rewrite the
  // answer before it goes down.
  kIntercept,
  // Answer here, with Plan::answer, without asking the upstream.
  kAnswer,
};

struct Plan {
  Handling handling = Handling::kForward;
  ProxyResponse answer;
};

// One request and its answer, for observers: what passed and how fast.
struct ExchangeRecord {
  std::string method;
  // The path without its query, which may hold a secret.
  std::string path;
  // The status the client got; 0 when it got none (it went away first).
  int status = 0;
  Handling handling = Handling::kForward;
  bool websocket = false;
  // The request's and the answer's body bytes as they crossed (chunk framing included); for
  // a tunnel, the bytes of each direction after the 101.
  std::uint64_t bytes_up = 0;
  std::uint64_t bytes_down = 0;
  // From the request's head having arrived to the answer's last byte having been written.
  std::chrono::microseconds duration{0};
  // Why the exchange did not complete, in one line; empty when it did.
  std::string error;
};

struct ProxyHooks {
  // Plan decides how to handle a request from its head; none forwards everything.
  std::function<Plan(const RequestHead&)> plan;
  // Rewrite changes an intercepted answer in place; the proxy sets its framing afterwards.
  std::function<void(const ProxyRequest&, ProxyResponse&)> rewrite;
  // Observe sees every exchange once it has ended.
  std::function<void(const ExchangeRecord&)> observe;
};

struct ProxyLimits {
  std::size_t max_head_bytes = 64 * 1024;
  // The most an intercepted request or answer body may hold; more is 413 or 502.
  std::size_t max_intercepted_body = 16 * 1024 * 1024;
  // For the client to send its request's head, and for the upstream to answer an
  // intercepted request whole.
  std::chrono::milliseconds head_timeout{30000};
  // The longest wait for any one read or write while a body streams; a transfer may take as
  // long as it needs as long as it moves.
  std::chrono::milliseconds idle_timeout{120000};
  std::chrono::milliseconds connect_timeout{10000};
  std::size_t max_connections = 64;
  TransportOptions transport;
};

class ReverseProxy {
 public:
  // Start listens on `address` ("HOST:PORT"; port 0 picks one) and serves until destroyed.
  static Result<std::unique_ptr<ReverseProxy>> Start(const std::string& address, Url upstream,
                                                     ProxyHooks hooks, ProxyLimits limits = {});
  ~ReverseProxy();
  ReverseProxy(const ReverseProxy&) = delete;
  ReverseProxy& operator=(const ReverseProxy&) = delete;

  std::string address() const { return BoundAddress(listener_); }
  const std::string& host() const { return listener_.host; }
  int port() const { return listener_.port; }
  const Url& upstream() const { return upstream_; }

  // CloseTunnels ends every WebSocket tunnel now; the clients see their server close. A
  // socket.io client connects again on its own, and that is the point: the official runner
  // asks for jobs whenever its socket connects.
  void CloseTunnels();

 private:
  struct Connection;

  ReverseProxy() = default;
  void AcceptLoop(ServerShell& shell);
  void Reap(bool all);

  Url upstream_;
  ProxyHooks hooks_;
  ProxyLimits limits_;
  Listener listener_;
  std::mutex mutex_;
  std::list<std::unique_ptr<Connection>> connections_;
  // Last, so that it stops before the members its loop reads go.
  std::unique_ptr<ServerShell> shell_;
};

}  // namespace mc::http
