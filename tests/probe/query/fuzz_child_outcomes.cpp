// The query batch's outcomes carry whatever drivers printed; the parent must answer every
// input with outcomes or an error, and what it accepts must survive a round trip.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "probe/query/child_outcome_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<std::vector<mc::probe::ChildOutcome>> outcomes = mc::probe::ParseOutcomes(text);
  if (!outcomes) return 0;
  mc::Result<std::vector<mc::probe::ChildOutcome>> again =
      mc::probe::ParseOutcomes(mc::probe::OutcomesToJson(*outcomes));
  if (!again || again->size() != outcomes->size()) std::abort();
  for (std::size_t i = 0; i < outcomes->size(); ++i) {
    const mc::probe::ChildOutcome& a = (*outcomes)[i];
    const mc::probe::ChildOutcome& b = (*again)[i];
    if (a.kind != b.kind || a.code != b.code || a.out != b.out || a.err != b.err) std::abort();
  }
  return 0;
}
