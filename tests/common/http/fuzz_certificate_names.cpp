// Fuzz target: any bytes as a certificate's DER must give its IP addresses or an error, never
// a crash or a read past the input (which the sanitizers catch); no address can be longer
// than the input it came from.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/http/certificate_names.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mc::Result<std::vector<std::string>> addresses =
      mc::http::CertificateIpAddresses(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!addresses) return 0;
  for (const std::string& address : *addresses) {
    if (address.size() > size) std::abort();
  }
  return 0;
}
