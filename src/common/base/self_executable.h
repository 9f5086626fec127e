// This binary's own path, for a child that runs it again or a link that points at it.
#pragma once

#include <filesystem>

#include "common/base/result.h"

namespace mc {

// SelfExecutable names this process's binary for exec: /proc/self/exe, which the kernel links
// to the binary it runs, even where that was moved since.
std::filesystem::path SelfExecutable();

// SelfExecutablePath is the binary's path on disk, read through that link. A link made for
// another process needs it: there, /proc/self/exe names that process's binary.
Result<std::filesystem::path> SelfExecutablePath();

}  // namespace mc
