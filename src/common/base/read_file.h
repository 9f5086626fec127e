// The kube module reads small files given by name: certificates, keys and token files.
#pragma once

#include <filesystem>
#include <string>

#include "common/base/result.h"

namespace mc {

// ReadFileText reads the whole of `file`; the error names the file and the system's reason,
// such as "/run/token: No such file or directory".
Result<std::string> ReadFileText(const std::filesystem::path& file);

}  // namespace mc
