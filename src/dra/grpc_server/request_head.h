// The request headers of a gRPC call, as a peer sent them.
// The protocol calls them Request-Headers.
// This file checks what the server needs of them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/base/result.h"

namespace mc::dra {

using Header = std::pair<std::string, std::string>;

// The most header bytes (names and values) a request may carry.
// The kubelet's are a few hundred.
// The bound keeps a peer from growing a stream's memory without end.
constexpr std::size_t kMaxRequestHeaderBytes = 16 * 1024;

struct RequestHead {
  // The method, "/<package>.<Service>/<Method>".
  std::string path;
};

// ParseRequestHead accepts a POST with these headers:
//  - content-type application/grpc, perhaps with "+proto" or parameters;
//  - a path naming a service and a method;
//  - grpc-encoding identity, or none.
// The error names the wrong header and what it held.
// nghttp2 checks HTTP/2's own rules (pseudo-headers, lower-case names).
Result<RequestHead> ParseRequestHead(const std::vector<Header>& headers);

}  // namespace mc::dra
