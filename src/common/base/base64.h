// Kubeconfigs carry certificates and keys as base64. Examples: `certificate-authority-data` and the
// like. The decoder is small, so it lives here rather than in a library.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc {

// DecodeBase64 decodes the standard alphabet (RFC 4648 section 4). It skips line breaks, as Go's
// decoder does. Go wrote most kubeconfigs. It also accepts text without its `=` padding. Any other
// character is an error naming its offset.
Result<std::string> DecodeBase64(std::string_view text);

}  // namespace mc
