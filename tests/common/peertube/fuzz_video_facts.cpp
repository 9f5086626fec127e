// Fuzz target: any text as a video object or as a file's metadata gives facts or an error,
// never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/video_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::peertube::ParseVideo(text);
  (void)mc::peertube::ParseVideoFileCodec(text);
  return 0;
}
