// A video-processing context of the stand-in GPU (VAEntrypointVideoProc): scale_vaapi's
// VAProcPipelineParameterBuffer, a source surface scaled into the picture's target.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "va_encode.h"
#include "va_memory.h"

namespace mc::fakeva {

class ProcessSession {
 public:
  explicit ProcessSession(std::string state_dir) : state_dir_(std::move(state_dir)) {}
  // Process does the pipeline the buffers describe into `target`; `busy` gets the time the
  // work took.
  VAStatus Process(Surface& target, const std::vector<RenderedBuffer>& buffers, VaMemory& memory,
                   std::chrono::nanoseconds* busy, std::string* error);

 private:
  const std::string state_dir_;
};

}  // namespace mc::fakeva
