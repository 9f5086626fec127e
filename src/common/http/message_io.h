// Reading HTTP messages off a stream. First the head up to its blank line. Then the body by its
// framing, either:
// - whole into memory, bounded; or
// - passed on to another stream as it arrives.
//
// So a proxy never holds a large upload or download.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "common/base/result.h"
#include "common/http/message_head.h"
#include "common/http/transport.h"

namespace mc::http {

// After its answer, a server shuts its side. It then reads what the client still sends, for this
// long, before closing. Closing a socket with unread bytes makes the kernel reset the connection. A
// reset can destroy the answer before the client read it.
inline constexpr std::chrono::milliseconds kLingerAfterAnswer{500};

class MessageReader {
 public:
  explicit MessageReader(Stream& stream) : stream_(stream) {}

  // ReadHead reads up to and including the head's blank line, at most `max_bytes`. What arrived
  // after it stays for the body. A stream that ends first is unavailable. A larger head is invalid
  // input.
  Result<std::string> ReadHead(std::size_t max_bytes, Deadline deadline);

  // ReadBody reads a body of `framing` whole and decoded, at most `max_bytes`.
  Result<std::string> ReadBody(const BodyFraming& framing, std::size_t max_bytes,
                               Deadline deadline);

  // RelayBody writes the body's bytes to `to` as they arrive, framing and all. It waits at most
  // `idle` for each read and each write. `relayed` counts the bytes passed on, also on a failure
  // part-way.
  Result<void> RelayBody(const BodyFraming& framing, Stream& to, std::chrono::milliseconds idle,
                         std::uint64_t& relayed);

  // HasBuffered: whether bytes read past the last message wait here. After a failed ReadHead:
  // whether any of the message had arrived. A client retries on a fresh connection only when none
  // had.
  bool HasBuffered() const { return !buffered_.empty(); }

  // TakeBuffered gives the bytes read past the last message, for a tunnel.
  std::string TakeBuffered() { return std::exchange(buffered_, std::string()); }

 private:
  // Fill reads more into the buffer. False at the end of the stream.
  Result<bool> Fill(Deadline deadline);

  Stream& stream_;
  std::string buffered_;
};

}  // namespace mc::http
