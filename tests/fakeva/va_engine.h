// The VA fake's end of the engine (tests/fakenv's fakenv_engine).
// Its encode, decode and video-processing contexts share it for:
//  - starting an engine;
//  - laying a surface out as the wire's picture;
//  - one request's exchange, up to the engine's closing kDone.
#pragma once

#include <va/va.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine_client.h"
#include "engine_wire.h"
#include "va_memory.h"

namespace mc::fakeva {

// StartEngine starts an engine whose samples go to `state_dir` under this process's id.
// Gives nullptr, with the reason in `*error`, when it cannot.
std::unique_ptr<fakenv::EngineClient> StartEngine(fakenv::EngineClient::Role role,
                                                  const std::string& state_dir, std::string* error);

// WirePicture gives a surface's bytes as the wire lays NV12 and P010 out.
// The chroma comes right after `height` luma rows.
// It gives the surface's own bytes, or a copy in `packed` where an odd height moves the chroma.
std::span<const std::uint8_t> WirePicture(const Surface& surface,
                                          std::vector<std::uint8_t>& packed);

// Exchange sends one request and hands each reply before the closing kDone to `each`.
// It gives one of:
//  - VA_STATUS_SUCCESS;
//  - `failed` when the engine reports a failure, with its reason in `*error`;
//  - VA_STATUS_ERROR_HW_BUSY when the engine is gone;
//  - the first status other than success that `each` gave.
VAStatus Exchange(fakenv::EngineClient& engine, fakenv::wire::Request request,
                  std::span<const std::byte> body, std::span<const std::byte> bytes,
                  VAStatus failed,
                  const std::function<VAStatus(const fakenv::wire::Message&)>& each,
                  std::string* error);

}  // namespace mc::fakeva
