// A gRPC call's request headers are outside input. The input is read as lines of
// "name value" (split at the first space), so that the fuzzer finds the names; the parser
// must answer every set with a head or an error, and a path it accepts must name a method.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dra/grpc_server/request_head.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<mc::dra::Header> headers;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    const std::size_t space = line.find(' ');
    headers.emplace_back(
        std::string(line.substr(0, space)),
        space == std::string_view::npos ? "" : std::string(line.substr(space + 1)));
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
  }
  mc::Result<mc::dra::RequestHead> head = mc::dra::ParseRequestHead(headers);
  if (!head) {
    if (head.error_message().empty()) std::abort();
    return 0;
  }
  if (head->path.size() < 4 || head->path.front() != '/') std::abort();
  return 0;
}
