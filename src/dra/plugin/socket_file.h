// The plugin's unix socket files.
// A socket left by a dead plugin blocks the new one's bind.
// The kubelet would also keep dialling it. So it is removed first.
#pragma once

#include <filesystem>

#include "common/base/result.h"

namespace mc::dra {

// The longest path AF_UNIX takes.
// sun_path is 108 bytes with its terminating zero.
constexpr std::size_t kMaxSocketPath = 107;

// PrepareSocketPath creates the socket's directory and removes a stale socket there.
// It refuses a path too long for AF_UNIX.
// It refuses anything at the path that is not a socket: someone else's file.
Result<void> PrepareSocketPath(const std::filesystem::path& socket);

// RemoveSocket removes the socket file if it is there.
// A missing file is not an error.
void RemoveSocket(const std::filesystem::path& socket);

}  // namespace mc::dra
