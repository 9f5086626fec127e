// The NVIDIA query child's report is outside input to the parent, like the VA-API one: the
// parser must answer every input with a value or an error, never a crash, and whatever it
// accepts must survive a round trip unchanged. The corpus holds the recorded GPUs of
// tests/fakenv/records too: a whole record is not a report and must be refused cleanly.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "probe/facts/nvidia_facts_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::probe::NvidiaFacts> facts = mc::probe::ParseNvidiaFacts(text);
  if (!facts) return 0;
  mc::Result<mc::probe::NvidiaFacts> again =
      mc::probe::ParseNvidiaFacts(mc::probe::NvidiaFactsToJson(*facts));
  if (!again || !(*again == *facts)) std::abort();
  return 0;
}
