// Kubeconfigs carry certificates and keys as base64 (`certificate-authority-data` and the
// like). The decoder is small enough to keep here rather than to take a library for it.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc {

// DecodeBase64 decodes the standard alphabet (RFC 4648 section 4). As Go's decoder, which
// wrote most kubeconfigs, it skips line breaks; it also accepts text without its `=`
// padding. Any other character outside the alphabet is an error naming its offset.
Result<std::string> DecodeBase64(std::string_view text);

}  // namespace mc
