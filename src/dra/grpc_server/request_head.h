// The request headers of a gRPC call (Request-Headers in the gRPC-over-HTTP/2 protocol), as
// a peer sent them: what this server needs of them, checked.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/base/result.h"

namespace mc::dra {

using Header = std::pair<std::string, std::string>;

// The most header bytes (names and values) a request may carry. The kubelet's are a few
// hundred; the bound keeps a peer from growing a stream's memory without end.
constexpr std::size_t kMaxRequestHeaderBytes = 16 * 1024;

struct RequestHead {
  // The method, "/<package>.<Service>/<Method>".
  std::string path;
};

// ParseRequestHead accepts a POST whose content-type is application/grpc (alone, with
// "+proto", or with parameters) and whose path names a service and a method, and whose
// grpc-encoding, if any, is identity; the error names the header that was wrong and what
// it held. HTTP/2's own rules (pseudo-headers, lower-case names) are nghttp2's to check.
Result<RequestHead> ParseRequestHead(const std::vector<Header>& headers);

}  // namespace mc::dra
