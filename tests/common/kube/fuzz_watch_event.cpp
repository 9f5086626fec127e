// Each line of a watch stream is outside input. The parser must answer every line with an
// event or an error, never a crash or an escaping exception, and an event it accepts must
// hold what its type promises.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/kube/watch_event.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::kube::WatchEvent> event = mc::kube::ParseWatchEvent(line);
  if (!event) {
    if (event.error_message().empty()) std::abort();
    return 0;
  }
  if (!event->object.is_object()) std::abort();
  if (event->type != mc::kube::WatchEvent::Type::kError && event->resource_version.empty())
    std::abort();
  return 0;
}
