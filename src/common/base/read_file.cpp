#include "common/base/read_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace mc {

Result<std::string> ReadFileText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    const std::string why = file.string() + ": " + std::strerror(errno);
    if (errno == ENOENT) return NotFound(why);
    if (errno == EACCES) return PermissionDenied(why);
    return Internal(why);
  }
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // A directory opens, but reading it fails. Say so; do not return empty text.
  if (in.bad()) return Error{file.string() + ": cannot be read"};
  std::error_code error;
  if (std::filesystem::is_directory(file, error))
    return InvalidInput(file.string() + ": is a directory");
  return text;
}

}  // namespace mc
