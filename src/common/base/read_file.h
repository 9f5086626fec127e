// Whole-file reads of small named files: certificates, tokens, /proc and sysfs entries.
#pragma once

#include <filesystem>
#include <string>

#include "common/base/result.h"

namespace mc {

// ReadFileText reads the whole of `file`. The error names the file and the system's reason.
// Example: "/run/token: No such file or directory".
Result<std::string> ReadFileText(const std::filesystem::path& file);

}  // namespace mc
