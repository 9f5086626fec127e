// A gRPC request body is outside input. The parser must answer every body with its one
// message or an error, and a message it accepts must frame back to the very body.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dra/grpc_server/message_frame.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  mc::Result<std::string_view> message = mc::dra::ParseSingleMessage(body);
  if (!message) {
    if (message.error_message().empty()) std::abort();
    return 0;
  }
  if (mc::dra::FrameMessage(*message) != body) std::abort();
  return 0;
}
