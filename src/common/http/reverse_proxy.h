// ReverseProxy passes HTTP/1.1 requests on to one upstream server, http or https. A hook decides
// how, request by request:
// - stream it both ways untouched;
// - tunnel a WebSocket;
// - hold it whole, so the answer can be rewritten;
// - answer it here.
//
// The worker's admission gate is its one user (src/worker/gate/admission_gate.h).
//
// Each client connection carries one request. The request goes up with "Connection: close". The
// answer comes down with it, and the connection closes after the answer. A keep-alive client then
// opens a new connection for its next request. Every HTTP/1.1 client does so on "Connection:
// close". In exchange, the proxy never has to split requests on a reused upstream connection.
//
// Each connection is served on a thread of its own. A slow client, upload or two-hour download
// holds only its own thread. The number of connections served at once is bounded. The rest wait in
// the kernel's backlog. Destroying the proxy interrupts every connection. It returns once their
// threads have ended.
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

// A request as the hook sees it: the head as the client sent it. Also the body, when the request is
// intercepted (held whole).
struct ProxyRequest {
  RequestHead head;
  std::string body;
};

struct ProxyResponse {
  ResponseHead head;
  std::string body;
};

enum class Handling {
  // Stream the request up and the answer down as they arrive. A WebSocket upgrade is tunnelled both
  // ways once the upstream answered 101.
  kForward,
  // Hold the request's body and the answer's whole, bounded. The hook may rewrite the answer before
  // it goes down.
  kIntercept,
  // Answer here, with Plan::answer, without asking the upstream.
  kAnswer,
};

struct Plan {
  Handling handling = Handling::kForward;
  ProxyResponse answer;
};

// One request and its answer, for observers: what passed, how fast.
struct ExchangeRecord {
  std::string method;
  // The path without its query, which may hold a secret.
  std::string path;
  // The status the client got. 0 when it went away first.
  int status = 0;
  Handling handling = Handling::kForward;
  bool websocket = false;
  // The body bytes of request and answer as they crossed, chunk framing included. For a tunnel:
  // each direction's bytes after the 101.
  std::uint64_t bytes_up = 0;
  std::uint64_t bytes_down = 0;
  // From the request's head arriving to the answer's last byte written.
  std::chrono::microseconds duration{0};
  // Why the exchange did not complete, in one line. Empty when it did.
  std::string error;
};

struct ProxyHooks {
  // Plan decides from its head how to handle a request. None forwards everything.
  std::function<Plan(const RequestHead&)> plan;
  // Rewrite changes an intercepted answer in place. The proxy sets its framing afterwards.
  std::function<void(const ProxyRequest&, ProxyResponse&)> rewrite;
  // Observe sees every exchange once it has ended.
  std::function<void(const ExchangeRecord&)> observe;
};

struct ProxyLimits {
  std::size_t max_head_bytes = 64 * 1024;
  // The most an intercepted request or answer body may hold. More is 413 or 502.
  std::size_t max_intercepted_body = 16 * 1024 * 1024;
  // For the client to send its request's head. Also for the upstream to answer an intercepted
  // request whole.
  std::chrono::milliseconds head_timeout{30000};
  // For the client's first byte. A connection that sends nothing is closed after this.
  std::chrono::milliseconds first_byte_timeout{5000};
  // The longest wait for one read or write while a body streams. A transfer may take as long as it
  // needs, while it moves.
  std::chrono::milliseconds idle_timeout{120000};
  std::chrono::milliseconds connect_timeout{10000};
  std::size_t max_connections = 64;
  TransportOptions transport;
};

class ReverseProxy {
 public:
  // Start listens on `address` ("HOST:PORT"; port 0 picks one). It serves until destroyed.
  static Result<std::unique_ptr<ReverseProxy>> Start(const std::string& address, Url upstream,
                                                     ProxyHooks hooks, ProxyLimits limits = {});
  ~ReverseProxy();
  ReverseProxy(const ReverseProxy&) = delete;
  ReverseProxy& operator=(const ReverseProxy&) = delete;

  std::string address() const { return BoundAddress(listener_); }
  const std::string& host() const { return listener_.host; }
  int port() const { return listener_.port; }
  const Url& upstream() const { return upstream_; }

  // CloseTunnels ends every WebSocket tunnel now. The clients see their server close. A socket.io
  // client connects again on its own, and that is the point. The official runner asks for jobs
  // whenever its socket connects.
  void CloseTunnels();

 private:
  struct Connection;

  ReverseProxy() = default;
  void AcceptLoop(ServerShell& shell);
  void Reap(bool all);
  // MakeRoom: whether another connection fits. It fits in a free slot. Or `evict` ends the
  // connection that waited longest for its request's head.
  bool MakeRoom(bool evict);

  Url upstream_;
  ProxyHooks hooks_;
  ProxyLimits limits_;
  Listener listener_;
  std::mutex mutex_;
  std::list<std::unique_ptr<Connection>> connections_;
  // Last, so it stops before the members its loop reads go.
  std::unique_ptr<ServerShell> shell_;
};

}  // namespace mc::http
