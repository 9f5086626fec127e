#include "common/kube/bearer_token.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "common/base/read_file.h"
#include "common/base/text.h"

namespace mc::kube {

BearerToken::BearerToken(std::string fixed, std::filesystem::path file)
    : fixed_(std::move(fixed)), file_(std::move(file)) {}

Result<std::string> BearerToken::Current() {
  if (file_.empty()) return fixed_;

  struct stat status {};
  if (::stat(file_.c_str(), &status) != 0) {
    return Error{"token file " + file_.string() + ": " + std::strerror(errno)};
  }
  Stamp stamp;
  stamp.device = status.st_dev;
  stamp.inode = status.st_ino;
  stamp.size = static_cast<unsigned long long>(status.st_size);
  stamp.mtime_ns =
      static_cast<long long>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
  stamp.ctime_ns =
      static_cast<long long>(status.st_ctim.tv_sec) * 1'000'000'000 + status.st_ctim.tv_nsec;

  std::lock_guard lock(mutex_);
  if (have_read_ && stamp == stamp_) return token_;
  Result<std::string> text = ReadFileText(file_);
  if (!text) return Error{"token file " + text.error_message()};
  // Token files often end in a newline. Trim white space at both ends, as client-go does.
  std::string token(Trim(*text));
  if (token.empty()) return Error{"token file " + file_.string() + " is empty"};
  token_ = std::move(token);
  stamp_ = stamp;
  have_read_ = true;
  return token_;
}

}  // namespace mc::kube
