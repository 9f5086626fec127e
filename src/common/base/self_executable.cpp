#include "common/base/self_executable.h"

#include <system_error>

namespace mc {

std::filesystem::path SelfExecutable() { return "/proc/self/exe"; }

Result<std::filesystem::path> SelfExecutablePath() {
  std::error_code error;
  std::filesystem::path binary = std::filesystem::read_symlink(SelfExecutable(), error);
  if (error) {
    return Internal("cannot find this binary's own path (" + SelfExecutable().string() +
                    "): " + error.message());
  }
  return binary;
}

}  // namespace mc
