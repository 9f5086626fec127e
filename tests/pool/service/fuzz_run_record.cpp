// A run's record is outside input to `pool replay`. The parser must answer every input with a
// record or an error naming the file, never a crash or an escaping exception; a record it
// accepts must give every cycle's signals back, and write out to lines it reads again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pool/service/run_record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::pool::RunRecord> record = mc::pool::ParseRunRecord(text, "fuzz");
  if (!record) {
    if (record.error_message().rfind("fuzz: ", 0) != 0) std::abort();
    return 0;
  }
  std::string written = mc::pool::RecordHeaderLine(record->policy, record->queue_poll) + "\n";
  for (const mc::pool::CycleRecord& cycle : record->cycles) {
    if (!mc::pool::SignalsOf(cycle)) std::abort();
    written += mc::pool::CycleLine(cycle) + "\n";
  }
  mc::Result<mc::pool::RunRecord> again = mc::pool::ParseRunRecord(written, "fuzz");
  if (!again || again->cycles.size() != record->cycles.size() ||
      again->jobs.size() != record->jobs.size()) {
    std::abort();
  }
  return 0;
}
