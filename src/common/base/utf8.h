// Strings from drivers are outside input. They may hold bytes that are not UTF-8. The Kubernetes
// API limits string attributes to 64 bytes. These helpers make such a string safe to publish. They
// lose no more of it than the limits require.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mc {

// ValidUtf8 replaces each ill-formed UTF-8 sequence with U+FFFD. So the result always encodes as
// JSON. Valid input comes back unchanged.
std::string ValidUtf8(std::string_view text);

// TruncateUtf8 cuts valid UTF-8 text to at most max_bytes bytes. It never cuts inside a character.
// A character that would cross the limit is dropped whole.
std::string TruncateUtf8(std::string_view text, std::size_t max_bytes);

}  // namespace mc
