// An encode context of the fake GPU.
// The client renders sequence, picture, slice and misc parameter buffers for a picture.
// They become the settings of an engine process, and one frame for it.
// The engine is tests/fakenv's fakenv_engine, with libx264 or libx265.
// Its access unit, parameter sets in-band, goes into the picture's coded buffer.
// The coding happens in that separate process, as on a GPU's video engine.
// The client only waits.
#pragma once

#include <va/va.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine_wire.h"
#include "va_memory.h"

namespace fakenv {
class EngineClient;
}

namespace mc::fakeva {

// A buffer as it was rendered into a picture: its type and a copy of its bytes.
struct RenderedBuffer {
  VABufferType type = VAPictureParameterBufferType;
  std::vector<std::uint8_t> bytes;
};

// What the fake takes from one picture's parameters.
struct EncodePicture {
  VABufferID coded_buffer = VA_INVALID_ID;
  bool idr = false;
  // The QP the client asks for under constant QP.
  std::uint32_t qp = 26;
};

class EncodeSession {
 public:
  // `rate_control` is the config's VA_RC_* mode; `state_dir` is where the engine keeps its
  // samples.
  EncodeSession(VAProfile profile, std::uint32_t rate_control, std::string state_dir);
  ~EncodeSession();
  EncodeSession(const EncodeSession&) = delete;
  EncodeSession& operator=(const EncodeSession&) = delete;

  // Encode codes `input` with the picture's buffers and writes the access unit into the coded
  // buffer the picture parameters name. `busy` gets the time the engine worked on it. A
  // failure names what was wrong in `*error`.
  VAStatus Encode(const Surface& input, const std::vector<RenderedBuffer>& buffers,
                  VaMemory& memory, std::chrono::nanoseconds* busy, std::string* error);

 private:
  // Read takes the parameters of one picture into settings_ and the picture.
  bool Read(const std::vector<RenderedBuffer>& buffers, EncodePicture& picture, std::string* error);
  void ReadMisc(const std::vector<std::uint8_t>& bytes);
  bool Open(const Surface& input, std::string* error);

  const VAProfile profile_;
  const std::uint32_t rate_control_;
  const std::string state_dir_;
  fakenv::wire::EncoderSettings settings_;
  std::unique_ptr<fakenv::EngineClient> engine_;
  std::int64_t pictures_ = 0;
};

}  // namespace mc::fakeva
