// Fuzz target: any bytes as ffprobe's answer must give facts or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "worker/transcode/input_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::worker::ParseInputFacts(text);
  return 0;
}
