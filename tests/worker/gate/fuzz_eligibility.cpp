// Fuzz target: any text as eligibility, in either form, must give a value or an error,
// never a crash; a value written back as text must read back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "worker/gate/eligibility.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::worker::ParseEligibilityJson(text);
  mc::Result<mc::worker::Eligibility> eligibility = mc::worker::ParseEligibility(text);
  if (!eligibility) return 0;
  mc::Result<mc::worker::Eligibility> again =
      mc::worker::ParseEligibility(mc::worker::EligibilityText(*eligibility));
  if (!again || again->job_types != eligibility->job_types ||
      again->max_resolution != eligibility->max_resolution || again->jobs != eligibility->jobs)
    std::abort();
  return 0;
}
