#include "common/http/hmac.h"

#include "common/http/tls_library.h"

namespace mc::http {

Result<std::string> HmacSha256Hex(std::string_view key, std::string_view message,
                                  const std::string& tls_library) {
  Result<const TlsLibrary*> loaded = LoadTlsLibrary(tls_library);
  if (!loaded) return loaded.error();
  const TlsLibrary& tls = **loaded;
  unsigned char digest[EVP_MAX_MD_SIZE] = {};
  unsigned int size = 0;
  if (!tls.HMAC(tls.EVP_sha256(), key.data(), static_cast<int>(key.size()),
                reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
                &size))
    return Internal("HMAC-SHA256: " + TlsErrorText(tls, "refused"));
  constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace mc::http
