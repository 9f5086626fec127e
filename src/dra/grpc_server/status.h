// The status a gRPC call ends with.
// The protocol carries it in two trailers:
//  - `grpc-status`, a code;
//  - `grpc-message`, percent-encoded text.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

// The gRPC status codes this server answers with.
// Their numbers are the protocol's.
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

// StatusFromError names a parse failure in gRPC's terms.
// Malformed input is the peer's protocol error: INTERNAL, as gRPC's servers say.
// An unsupported feature is UNIMPLEMENTED.
GrpcStatus StatusFromError(const Error& error);

// PercentEncodeStatusMessage encodes a message for the `grpc-message` trailer.
// Every byte outside printable ASCII, and '%' itself, becomes %XX.
// So UTF-8 text survives as a header value, and the client decodes it back.
std::string PercentEncodeStatusMessage(std::string_view message);

}  // namespace mc::dra
