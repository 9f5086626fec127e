// HMAC-SHA256 (RFC 2104 over SHA-256), by OpenSSL's libcrypto. It is opened as TLS opens it
// (tls_library.h). It is a keyed digest: one side derives a token, the other checks it.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::http {

// HmacSha256Hex: the digest of `message` under `key`, as 64 lowercase hex digits. An error only
// where OpenSSL cannot be opened.
Result<std::string> HmacSha256Hex(std::string_view key, std::string_view message,
                                  const std::string& tls_library = "libssl.so.3");

}  // namespace mc::http
