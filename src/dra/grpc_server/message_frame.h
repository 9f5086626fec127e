// gRPC's Length-Prefixed-Message. It holds, in order:
//  - a compressed flag (one byte);
//  - the length (four bytes, big endian);
//  - the message.
// A request body of a unary or server-streaming call holds exactly one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

constexpr std::size_t kMessagePrefixSize = 5;

// The largest request message taken: 4 MiB, gRPC's default for a receiver.
// The kubelet's requests are a few hundred bytes.
constexpr std::size_t kMaxRequestMessage = 4 * 1024 * 1024;

// FrameMessage puts the prefix before an uncompressed message.
std::string FrameMessage(std::string_view message);

// ParseSingleMessage reads the one message of a whole request body.
// These bodies are malformed (kInvalidInput):
//  - no message;
//  - a cut message;
//  - a second message after the first.
// A compressed message is kUnsupported.
// This server offers no encoding, so a client may not compress.
// The error names what was wrong, with the sizes.
Result<std::string_view> ParseSingleMessage(std::string_view body);

// Whether `size` bytes already exceed one largest message with its prefix.
// Then the server refuses the body before the rest arrives.
constexpr bool BodyTooLarge(std::size_t size) {
  return size > kMessagePrefixSize + kMaxRequestMessage;
}

}  // namespace mc::dra
