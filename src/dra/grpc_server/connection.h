// Connection is the server's side of one HTTP/2 connection of gRPC calls.
// It runs over libnghttp2: bytes from the peer go in, bytes to send come out.
// No socket or thread is involved.
// So the server's loop, the tests and the fuzz target drive it alike.
//
// A good request, for a method the owner serves, goes to the owner's `start`.
// The owner answers with Send (any number of messages) and Finish (the status).
// The status goes in the trailers.
// Any other request is answered here and never reaches the owner:
//  - bad headers;
//  - an unknown method;
//  - a malformed, compressed or oversized message.
// Its status names what was wrong.
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
  // A started call's stream ended. Its call may stop. The stream was:
  //  - finished;
  //  - cancelled by the client (RST_STREAM);
  //  - ended with the connection.
  std::function<void(StreamId stream)> closed;
};

class Connection {
 public:
  static Result<std::unique_ptr<Connection>> Create(ConnectionCallbacks callbacks);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Receive takes bytes read from the peer.
  // An error means the peer broke HTTP/2 past repair.
  // Then TakeOutput still gives a GOAWAY naming why; send it before closing.
  Result<void> Receive(std::string_view bytes);
  // TakeOutput gives the bytes to send now; empty when there are none.
  std::string TakeOutput();

  // Send queues one response message of a started call.
  // After Finish it does nothing.
  void Send(StreamId stream, std::string_view message);
  // Finish ends a call with `status`, after the messages sent before it.
  void Finish(StreamId stream, const GrpcStatus& status);
  // GoAway tells the peer that no new call is taken.
  // The open calls run to their end.
  void GoAway();

  // Whether anything is left to read or send.
  // Once not, the connection may close.
  bool Alive() const;

 private:
  // The session, its streams and nghttp2's callbacks live in connection.cpp.
  struct Session;
  explicit Connection(std::unique_ptr<Session> session);

  std::unique_ptr<Session> session_;
};

}  // namespace mc::dra
