// The plugin's methods as the gRPC server takes them.
// They parse and serialize the kubelet's protobuf messages (protobuf-lite).
// The server carries only the bytes.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "dra/grpc_server/server.h"

namespace mc::dra {

// StreamWriter sends one server-streaming call's messages.
template <class Response>
class StreamWriter {
 public:
  explicit StreamWriter(CallWriter& call) : call_(call) {}
  // Write says false once the kubelet has closed the stream.
  bool Write(const Response& response) { return call_.Write(response.SerializeAsString()); }
  bool Cancelled() const { return call_.Cancelled(); }

 private:
  CallWriter& call_;
};

namespace internal {

// A request that does not parse is the client's error.
// gRPC's own servers answer it INTERNAL.
template <class Request>
bool ParseRequest(std::string_view bytes, Request& request, GrpcStatus& refusal) {
  if (request.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return true;
  refusal = {StatusCode::kInternal, "the request is not a valid " + request.GetTypeName()};
  return false;
}

}  // namespace internal

// UnaryMethod serves `path` with `run`, which fills the response of one request.
template <class Request, class Response>
Method UnaryMethod(std::string path, std::function<void(const Request&, Response&)> run) {
  return {std::move(path), [run = std::move(run)](std::string_view bytes, CallWriter& call) {
            Request request;
            GrpcStatus status;
            if (!internal::ParseRequest(bytes, request, status)) return status;
            Response response;
            run(request, response);
            call.Write(response.SerializeAsString());
            return status;
          }};
}

// StreamMethod serves `path` with `run`.
// `run` writes any number of responses to one request.
// It returns when the stream is to end.
template <class Request, class Response>
Method StreamMethod(std::string path,
                    std::function<void(const Request&, StreamWriter<Response>&)> run) {
  return {std::move(path), [run = std::move(run)](std::string_view bytes, CallWriter& call) {
            Request request;
            GrpcStatus status;
            if (!internal::ParseRequest(bytes, request, status)) return status;
            StreamWriter<Response> writer(call);
            run(request, writer);
            return status;
          }};
}

}  // namespace mc::dra
