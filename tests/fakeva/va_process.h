// A video-processing context of the fake GPU (VAEntrypointVideoProc): scale_vaapi's
// VAProcPipelineParameterBuffer, a rectangle of a source surface scaled into a rectangle of
// the picture's target. The scaling is done by the engine process (libswscale), as a GPU's
// video-enhance engine does it apart from the CPU.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "va_encode.h"
#include "va_memory.h"

namespace fakenv {
class EngineClient;
}

namespace mc::fakeva {

class ProcessSession {
 public:
  explicit ProcessSession(std::string state_dir);
  ~ProcessSession();
  ProcessSession(const ProcessSession&) = delete;
  ProcessSession& operator=(const ProcessSession&) = delete;

  // Process does the pipeline the buffers describe into `target`; `busy` gets the time the
  // engine worked on it. NV12 in and out only.
  VAStatus Process(Surface& target, const std::vector<RenderedBuffer>& buffers, VaMemory& memory,
                   std::chrono::nanoseconds* busy, std::string* error);

 private:
  // Scaled has the engine make a width x height NV12 picture of a rectangle of `source`.
  bool Scaled(const Surface& source, const VARectangle& from, std::uint32_t width,
              std::uint32_t height, std::vector<std::uint8_t>& out, std::string* error);

  const std::string state_dir_;
  std::unique_ptr<fakenv::EngineClient> engine_;
};

}  // namespace mc::fakeva
