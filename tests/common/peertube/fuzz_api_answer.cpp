// Fuzz target: any text as an error answer's body or as a Retry-After header gives a message
// or a wait, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/api_answer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::peertube::ProblemText(text);
  (void)mc::peertube::RetryAfter(text, std::chrono::seconds(10));
  return 0;
}
