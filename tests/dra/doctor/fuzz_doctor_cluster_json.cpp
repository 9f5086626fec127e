// Every answer of the API server is outside input to the cluster checks. Each parser must
// answer any text with a value or an error that names what it could not read, never a crash
// or an escaping exception.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dra/doctor/cluster_json.h"

namespace {

template <typename T>
void Check(const mc::Result<T>& result) {
  if (!result && result.error_message().empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mc::dra;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  Check(ParseApiResourceNames(body));
  Check(ParseSlices(body));
  Check(ParseStoredCapacity(body, "encodeSessions"));
  Check(ParseClassesOfDriver(body, "media.liken.sh"));
  Check(ParsePendingClaims(body, {"media-encode"}, "media.liken.sh"));
  Check(ParsePods(body));
  Check(ParseNewestEventMessage(body));
  return 0;
}
