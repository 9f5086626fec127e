// Fuzz target: any text as the answer of runners/register gives a value or an error, never a
// crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/runner_registration.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)mc::peertube::ParseRegisterRunnerResult(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
