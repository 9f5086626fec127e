// A trace is outside input. The parser must answer every input with a trace or an error,
// never a crash or an escaping exception; a trace it accepts must write out and read back
// to the same text, with every parent an earlier job.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <unordered_set>

#include "pool/trace/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::pool::Trace> trace = mc::pool::ParseTrace(text, "fuzz");
  if (!trace) {
    if (trace.error_message().empty()) std::abort();
    return 0;
  }
  std::unordered_set<std::string> seen;
  for (const mc::pool::TraceJob& job : trace->jobs) {
    if (!job.parent.empty() && !seen.count(job.parent)) std::abort();
    seen.insert(job.id);
  }
  const std::string written = mc::pool::TraceToJsonl(*trace);
  mc::Result<mc::pool::Trace> again = mc::pool::ParseTrace(written, "fuzz");
  if (!again || mc::pool::TraceToJsonl(*again) != written) std::abort();
  return 0;
}
