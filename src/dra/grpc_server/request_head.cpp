#include "dra/grpc_server/request_head.h"

#include <string_view>

#include "common/base/text.h"

namespace mc::dra {
namespace {

// A gRPC content-type is application/grpc.
// The protocol's grammar allows a sub-type ("+proto") or parameters (";charset=...").
bool IsGrpcContentType(std::string_view value) {
  constexpr std::string_view kGrpc = "application/grpc";
  if (value.substr(0, kGrpc.size()) != kGrpc) return false;
  const std::string_view rest = value.substr(kGrpc.size());
  return rest.empty() || rest.front() == '+' || rest.front() == ';';
}

// A path is "/Service/Method", both non-empty.
bool IsMethodPath(std::string_view path) {
  if (path.size() < 4 || path.front() != '/') return false;
  const std::size_t slash = path.find('/', 1);
  return slash != std::string_view::npos && slash > 1 && slash + 1 < path.size() &&
         path.find('/', slash + 1) == std::string_view::npos;
}

}  // namespace

Result<RequestHead> ParseRequestHead(const std::vector<Header>& headers) {
  const std::string* method = nullptr;
  const std::string* path = nullptr;
  const std::string* content_type = nullptr;
  const std::string* encoding = nullptr;
  for (const auto& [name, value] : headers) {
    if (name == ":method") method = &value;
    if (name == ":path") path = &value;
    if (name == "content-type") content_type = &value;
    if (name == "grpc-encoding") encoding = &value;
  }
  if (!method || *method != "POST") {
    return InvalidInput("a gRPC request must be a POST, not " +
                        (method ? "'" + PrintableLine(*method) + "'" : std::string("no :method")));
  }
  if (!content_type || !IsGrpcContentType(*content_type)) {
    return InvalidInput(
        "a gRPC request's content-type must be application/grpc, not " +
        (content_type ? "'" + PrintableLine(*content_type) + "'" : std::string("missing")));
  }
  if (!path || !IsMethodPath(*path)) {
    return InvalidInput("a gRPC request's :path must be /Service/Method, not " +
                        (path ? "'" + PrintableLine(*path) + "'" : std::string("missing")));
  }
  if (encoding && *encoding != "identity") {
    return Unsupported("the request's grpc-encoding '" + PrintableLine(*encoding) +
                       "' is not offered; only identity is");
  }
  return RequestHead{*path};
}

}  // namespace mc::dra
