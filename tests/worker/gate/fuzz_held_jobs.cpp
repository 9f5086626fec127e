// Fuzz target: any text as the held jobs' file gives jobs or an error, never a crash; every
// job read names a UUID of its own characters and a token, and written again reads the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "worker/gate/held_jobs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const mc::Result<std::vector<mc::worker::HeldJob>> jobs = mc::worker::ParseHeldJobs(text);
  if (!jobs) return 0;
  for (const mc::worker::HeldJob& job : *jobs) {
    if (job.uuid.empty() || job.job_token.empty() || job.uuid.find('/') != std::string::npos)
      std::abort();
  }
  const auto again = mc::worker::ParseHeldJobs(mc::worker::HeldJobsJson(*jobs));
  if (!again || *again != *jobs) std::abort();
  return 0;
}
