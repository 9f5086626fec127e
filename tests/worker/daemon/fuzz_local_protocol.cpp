// Fuzz target: any line on the worker's local socket, as a request or as an answer, must read
// as one or give an error, never crash; what reads back writes out as a line that reads back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "worker/daemon/local_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (mc::Result<mc::worker::LocalRequest> request = mc::worker::ParseLocalRequest(line)) {
    const std::string again = mc::worker::LocalRequestLine(*request);
    if (!mc::worker::ParseLocalRequest(std::string_view(again).substr(0, again.size() - 1)))
      __builtin_trap();
  }
  if (mc::Result<mc::worker::LocalAnswer> answer = mc::worker::ParseLocalAnswer(line))
    (void)mc::worker::LocalAnswerLine(*answer);
  return 0;
}
