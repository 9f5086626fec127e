// HMAC-SHA256 (RFC 2104 over SHA-256), by OpenSSL's libcrypto, opened as TLS opens it
// (tls_library.h): a keyed digest for tokens one side derives and the other checks.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::http {

// HmacSha256Hex is the digest of `message` under `key`, as 64 lowercase hex digits; an
// error only where OpenSSL cannot be opened.
Result<std::string> HmacSha256Hex(std::string_view key, std::string_view message,
                                  const std::string& tls_library = "libssl.so.3");

}  // namespace mc::http
