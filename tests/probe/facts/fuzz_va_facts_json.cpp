// The query child's report is outside input to the parent: a child confused by its driver
// may print anything. The parser must answer every input with a value or an error, never a
// crash, and whatever it accepts must survive a round trip unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "probe/facts/va_facts_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::probe::VaFacts> facts = mc::probe::ParseVaFacts(text);
  if (!facts) return 0;
  // Every string the parser accepts is valid UTF-8 (the JSON parser checks), so what it
  // accepts must come back unchanged through the child's writer.
  mc::Result<mc::probe::VaFacts> again = mc::probe::ParseVaFacts(mc::probe::VaFactsToJson(*facts));
  if (!again || !(*again == *facts)) std::abort();
  return 0;
}
