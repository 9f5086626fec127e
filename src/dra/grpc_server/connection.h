// Connection is the server's side of one HTTP/2 connection carrying gRPC calls, over
// libnghttp2: bytes from the peer go in, bytes to send come out, and no socket or thread is
// involved, so the server's loop, the tests and the fuzz target drive it alike.
//
// A request that is whole and well-formed, for a method the owner serves, is handed to the
// owner's `start`; the owner answers it with Send (any number of messages) and Finish (the
// status, in the trailers). A request that is not (bad headers, an unknown method, a
// malformed, compressed or oversized message) is answered here with a status that names
// what was wrong, and never reaches the owner.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "dra/grpc_server/status.h"

namespace mc::dra {

using StreamId = std::int32_t;

struct CallStart {
  StreamId stream = 0;
  std::string path;
  // The request message's bytes, without their prefix.
  std::string request;
};

struct ConnectionCallbacks {
  // Whether a method of this path is served; any other is answered UNIMPLEMENTED.
  std::function<bool(const std::string& path)> serves;
  std::function<void(CallStart call)> start;
  // A started call's stream ended: finished, cancelled by the client (RST_STREAM), or
  // ended with the connection. Its call may stop.
  std::function<void(StreamId stream)> closed;
};

class Connection {
 public:
  static Result<std::unique_ptr<Connection>> Create(ConnectionCallbacks callbacks);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Receive takes bytes read from the peer. An error means the peer broke HTTP/2 past
  // repair; what TakeOutput still gives (a GOAWAY naming why) goes out before closing.
  Result<void> Receive(std::string_view bytes);
  // TakeOutput gives the bytes to send now; empty when there are none.
  std::string TakeOutput();

  // Send queues one response message of a started call; after Finish it does nothing.
  void Send(StreamId stream, std::string_view message);
  // Finish ends a call with `status`, after the messages sent before it.
  void Finish(StreamId stream, const GrpcStatus& status);
  // GoAway tells the peer that no new call is taken; the calls open run to their end.
  void GoAway();

  // Whether anything is left to read or send; once not, the connection may close.
  bool Alive() const;

 private:
  // The session and its streams, with nghttp2's callbacks, live in connection.cpp alone.
  struct Session;
  explicit Connection(std::unique_ptr<Session> session);

  std::unique_ptr<Session> session_;
};

}  // namespace mc::dra
