// The plugin's unix socket files. A socket left by a plugin that died is in the way of
// the new one's bind, and the kubelet would keep dialling it, so it is removed first.
#pragma once

#include <filesystem>

#include "common/base/result.h"

namespace mc::dra {

// The longest path AF_UNIX takes (sun_path is 108 bytes with its terminating zero).
constexpr std::size_t kMaxSocketPath = 107;

// PrepareSocketPath creates the socket's directory and removes a stale socket there. It
// refuses a path too long for AF_UNIX and anything at the path that is not a socket, which
// would be someone else's file.
Result<void> PrepareSocketPath(const std::filesystem::path& socket);

// RemoveSocket removes the socket file if it is there; a missing file is not an error.
void RemoveSocket(const std::filesystem::path& socket);

}  // namespace mc::dra
