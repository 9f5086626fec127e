// EngineClient is a fake library's end of its engine.
// The engine is the separate process that does a session's coding.
// A GPU's video engine, too, works apart from the CPU. The fake starts one:
//  - per encode session, when the encoder is initialised;
//  - per decoder, when the parser is created.
// The engine ends when the fake closes its socket.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "engine_wire.h"

namespace fakenv {

class EngineClient {
 public:
  enum class Role { kEncoder, kDecoder };

  // Start runs the engine for the client `client_id` of this process.
  // The engine is FAKENV_ENGINE, or the one built beside the fakes.
  // It appends its samples to `state_dir`, its GPU's state directory.
  // Gives nullptr, with the reason in `*error`, when it cannot be started.
  static std::unique_ptr<EngineClient> Start(Role role, const std::string& state_dir,
                                             std::uint32_t client_id, std::string* error);
  ~EngineClient();
  EngineClient(const EngineClient&) = delete;
  EngineClient& operator=(const EngineClient&) = delete;

  bool Send(wire::Request type, std::span<const std::byte> body,
            std::span<const std::byte> bytes = {});
  // Receive gives nullopt once the engine is gone.
  // It died, or sent something malformed.
  std::optional<wire::Message> Receive();
  bool gone() const { return gone_; }

 private:
  explicit EngineClient(int socket) : socket_(socket) {}
  int socket_;
  bool gone_ = false;
};

}  // namespace fakenv
