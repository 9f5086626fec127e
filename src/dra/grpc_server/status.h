// The status a gRPC call ends with, as the gRPC-over-HTTP/2 protocol carries it in the
// trailers: `grpc-status` (a code) and `grpc-message` (percent-encoded text).
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

// The codes of gRPC's status table that this server answers with; their numbers are the
// protocol's.
enum class StatusCode : int {
  kOk = 0,
  kResourceExhausted = 8,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
};

struct GrpcStatus {
  StatusCode code = StatusCode::kOk;
  std::string message;

  bool ok() const { return code == StatusCode::kOk; }
  bool operator==(const GrpcStatus&) const = default;
};

// StatusFromError names a failure of this server's own parsing in gRPC's terms: malformed
// input from a peer is the peer's protocol error (INTERNAL), as gRPC's own servers answer
// it, and an unsupported feature is UNIMPLEMENTED.
GrpcStatus StatusFromError(const Error& error);

// PercentEncodeStatusMessage encodes a message for the `grpc-message` trailer: every byte
// outside printable ASCII, and '%' itself, becomes %XX, so that UTF-8 text survives as a
// header value and the client decodes it back.
std::string PercentEncodeStatusMessage(std::string_view message);

}  // namespace mc::dra
