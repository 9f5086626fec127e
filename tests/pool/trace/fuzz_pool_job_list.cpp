// A PeerTube job list is outside input: the recorder answers a trace or an error, never a
// crash, and a trace it makes is one the trace parser reads.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pool/trace/trace_recorder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto trace = mc::pool::RecordTrace(text, mc::pool::RecordOptions{}, "fuzz");
  if (!trace) {
    if (trace.error_message().empty()) std::abort();
    return 0;
  }
  if (!mc::pool::ParseTrace(mc::pool::TraceToJsonl(*trace), "fuzz")) std::abort();
  return 0;
}
