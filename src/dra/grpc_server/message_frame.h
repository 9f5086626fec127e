// gRPC's Length-Prefixed-Message: a compressed flag (one byte), the length (four bytes, big
// endian), then the message. A request body of the calls this server takes (unary and
// server-streaming) holds exactly one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

constexpr std::size_t kMessagePrefixSize = 5;

// The largest request message taken, gRPC's own default for a receiver (4 MiB). The
// kubelet's requests are a few hundred bytes.
constexpr std::size_t kMaxRequestMessage = 4 * 1024 * 1024;

// FrameMessage puts the prefix before an uncompressed message.
std::string FrameMessage(std::string_view message);

// ParseSingleMessage reads the one message of a whole request body. A body with no message,
// a cut one, or a second message after it is malformed (kInvalidInput); a compressed message
// is kUnsupported, since this server offers no encoding and so a client may not compress.
// The error names what was wrong, with the sizes.
Result<std::string_view> ParseSingleMessage(std::string_view body);

// Whether a body of `size` bytes is already more than one message of kMaxRequestMessage
// bytes, so that the server refuses it before the rest arrives.
constexpr bool BodyTooLarge(std::size_t size) {
  return size > kMessagePrefixSize + kMaxRequestMessage;
}

}  // namespace mc::dra
