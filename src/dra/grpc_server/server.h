// Server serves gRPC methods on one unix socket, over libnghttp2.
// It speaks HTTP/2 without TLS (h2c, prior knowledge), as the kubelet dials.
// It takes calls whose request is one message: unary and server-streaming.
// Those are all the kubelet's plugin APIs make.
//
// One thread runs the socket's poll loop.
// Each call runs its method in a thread of its own.
// So a method that blocks delays no other call (the claim check reads the API).
// A method's messages and status go back to the loop through a queue.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "dra/grpc_server/status.h"

namespace mc::dra {

// CallWriter is what a method writes its responses to.
class CallWriter {
 public:
  virtual ~CallWriter() = default;
  // Write sends one response message.
  // It returns false once the call is cancelled; then nothing more is sent.
  virtual bool Write(std::string message) = 0;
  // Whether the call is over: cancelled, client gone, or server shutting down.
  virtual bool Cancelled() const = 0;
};

struct Method {
  // "/<package>.<Service>/<Method>", as the client's :path names it.
  std::string path;
  // Runs one call on the request message's bytes.
  // A unary method writes one message.
  // A server-streaming one writes as many as it likes.
  // The status it returns ends the call.
  std::function<GrpcStatus(std::string_view request, CallWriter& writer)> run;
};

class Server {
 public:
  // Listen binds `socket` and serves `methods` on it until Shutdown.
  // The socket file must not exist yet.
  static Result<std::unique_ptr<Server>> Listen(const std::filesystem::path& socket,
                                                std::vector<Method> methods);
  // The destructor shuts down with no grace.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Shutdown stops taking connections and calls, and cancels the open calls.
  // For up to `grace`, their methods may return and their answers go out.
  // Then it closes every connection and waits for the methods still running.
  // The caller removes the socket file. A second call does nothing.
  void Shutdown(std::chrono::milliseconds grace);

 private:
  struct Loop;
  explicit Server(std::unique_ptr<Loop> loop);

  std::unique_ptr<Loop> loop_;
};

}  // namespace mc::dra
