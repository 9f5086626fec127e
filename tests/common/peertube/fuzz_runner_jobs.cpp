// Fuzz target: any text as the answer of jobs/request or of accept must give jobs or an
// error, never a crash, and writing either back must not crash either.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/runner_jobs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (mc::peertube::ParseAvailableJobs(text))
    (void)mc::peertube::FilterAvailableJobs(text, [](std::size_t i, const auto&) { return i % 2; });
  (void)mc::peertube::NoAvailableJobs(text);
  if (mc::peertube::ParseAcceptedJob(text))
    (void)mc::peertube::RewriteInputUrls(text, {"http://127.0.0.1:9001"}, "http://127.0.0.1:9465");
  return 0;
}
