// Fuzz target: any text as the answer of oauth-clients/local or of users/token gives a value
// or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/peertube/oauth_token.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mc::peertube::ParseOAuthClient(text);
  (void)mc::peertube::ParseOAuthToken(text);
  return 0;
}
