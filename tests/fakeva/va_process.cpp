#include "va_process.h"

namespace mc::fakeva {

VAStatus ProcessSession::Process(Surface&, const std::vector<RenderedBuffer>&, VaMemory&,
                                 std::chrono::nanoseconds*, std::string* error) {
  *error = "the stand-in does not scale or convert pictures (VideoProc) yet";
  return VA_STATUS_ERROR_UNIMPLEMENTED;
}

}  // namespace mc::fakeva
