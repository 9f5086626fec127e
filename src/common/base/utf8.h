// Strings from drivers are outside input: they may hold bytes that are not UTF-8, and the
// Kubernetes API limits string attributes to 64 bytes. These helpers make such a string
// safe to publish without losing more of it than the limits require.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mc {

// ValidUtf8 replaces every byte sequence that is not well-formed UTF-8 with U+FFFD, so
// the result always encodes as JSON. Valid input comes back unchanged.
std::string ValidUtf8(std::string_view text);

// TruncateUtf8 cuts valid UTF-8 text to at most max_bytes bytes, never inside a
// character: a character that would cross the limit is dropped whole.
std::string TruncateUtf8(std::string_view text, std::size_t max_bytes);

}  // namespace mc
