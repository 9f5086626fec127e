// BearerToken is the token a client sends in its Authorization header. A token kept in a
// file is read again whenever the file changes: the kubelet rotates a projected
// service-account token in place, and a client that kept the first one would be refused
// once it expires (about an hour in).
#pragma once

#include <filesystem>
#include <mutex>
#include <string>

#include "common/base/result.h"

namespace mc::kube {

class BearerToken {
 public:
  // With a `file`, the file is the token and `fixed` is unused, as in client-go, where the
  // last successful read of BearerTokenFile wins over BearerToken. Without one, `fixed` is
  // the token; empty means the client sends none.
  BearerToken(std::string fixed, std::filesystem::path file);

  // Current gives the token to send now. It looks at the file's status on every call (one
  // stat, cheap beside a request) and reads it again only when the status changed. Any
  // thread may call it. A file that cannot be read, or that holds only white space, is an
  // error naming the file; the next call tries again.
  Result<std::string> Current();

 private:
  // What stat said of the file when it was last read: a rewrite in place changes the size
  // or the times, and the kubelet's swap of a symbolic link changes the inode.
  struct Stamp {
    unsigned long long device = 0, inode = 0, size = 0;
    long long mtime_ns = 0, ctime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };

  const std::string fixed_;
  const std::filesystem::path file_;
  std::mutex mutex_;
  bool have_read_ = false;
  Stamp stamp_;
  std::string token_;
};

}  // namespace mc::kube
