#include "common/base/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mc {
namespace {

Error ReadError(const std::filesystem::path& file, int error) {
  const std::string why = file.string() + ": " + std::strerror(error);
  if (error == ENOENT) return NotFound(why);
  if (error == EACCES) return PermissionDenied(why);
  if (error == EISDIR) return InvalidInput(file.string() + ": is a directory");
  return Internal(why);
}

}  // namespace

// POSIX reads, since a stream throws when a read fails: a /proc file of a
// process that has just ended answers ESRCH.
Result<std::string> ReadFileText(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadError(file, errno);
  struct stat info {};
  int error = ::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode) ? EISDIR : 0;
  std::string text;
  char buffer[8192];
  while (error == 0) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got > 0) text.append(buffer, static_cast<std::size_t>(got));
    if (got < 0 && errno != EINTR) error = errno;
  }
  ::close(fd);
  if (error != 0) return ReadError(file, error);
  return text;
}

}  // namespace mc
