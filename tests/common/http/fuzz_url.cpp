// Fuzz target: any text as a URL must give a URL or an error, never a crash; a URL read back
// from its own text must be the same URL.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/http/url.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::http::Url> url = mc::http::ParseUrl(text);
  if (!url) return 0;
  mc::Result<mc::http::Url> again = mc::http::ParseUrl(url->Text());
  if (!again || again->Text() != url->Text()) std::abort();
  return 0;
}
