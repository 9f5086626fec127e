// Fuzz target: any text as a page of the admin list of runner jobs gives jobs or an error,
// never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/runner_job_list.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)mc::peertube::ParseRunnerJobList(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
