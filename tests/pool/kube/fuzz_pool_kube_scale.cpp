// A Scale and an object's metadata are the API server's answers, outside input. The parsers
// must answer every body with a value or an error, never a crash or an escaping exception.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pool/kube_api/event_json.h"
#include "pool/kube_api/scale_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::pool::Scale> scale = mc::pool::ParseScale(body);
  if (scale ? scale->replicas < 0 : scale.error_message().empty()) std::abort();
  mc::Result<std::string> uid = mc::pool::ParseObjectUid(body);
  if (uid ? uid->empty() : uid.error_message().empty()) std::abort();
  return 0;
}
