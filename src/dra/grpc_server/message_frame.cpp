#include "dra/grpc_server/message_frame.h"

#include <cstdint>

namespace mc::dra {

std::string FrameMessage(std::string_view message) {
  const auto length = static_cast<std::uint32_t>(message.size());
  std::string framed;
  framed.reserve(kMessagePrefixSize + message.size());
  framed.push_back('\0');
  for (const int shift : {24, 16, 8, 0}) framed.push_back(static_cast<char>(length >> shift));
  framed.append(message);
  return framed;
}

Result<std::string_view> ParseSingleMessage(std::string_view body) {
  if (body.empty()) return InvalidInput("the request carried no message");
  if (body.size() < kMessagePrefixSize) {
    return InvalidInput("the request's message prefix is cut short: " +
                        std::to_string(body.size()) + " of 5 bytes");
  }
  const auto flag = static_cast<unsigned char>(body[0]);
  if (flag > 1) {
    return InvalidInput("the request's message prefix has compressed flag " + std::to_string(flag) +
                        ", not 0 or 1");
  }
  if (flag == 1) return Unsupported("the request's message is compressed; no encoding is offered");
  std::uint64_t length = 0;
  for (std::size_t i = 1; i < kMessagePrefixSize; ++i)
    length = (length << 8) | static_cast<unsigned char>(body[i]);
  const std::size_t carried = body.size() - kMessagePrefixSize;
  if (length > carried) {
    return InvalidInput("the request's message is cut short: " + std::to_string(carried) + " of " +
                        std::to_string(length) + " bytes");
  }
  if (length < carried) {
    return InvalidInput("the request carries " + std::to_string(carried - length) +
                        " bytes after its one message");
  }
  return body.substr(kMessagePrefixSize);
}

}  // namespace mc::dra
