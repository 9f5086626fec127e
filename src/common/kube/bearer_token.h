// BearerToken is the token a client sends in its Authorization header. A token kept in a file is
// read again whenever the file changes. The kubelet rotates a projected service-account token in
// place. A client that kept the first one would be refused once it expires. That happens about an
// hour in.
#pragma once

#include <filesystem>
#include <mutex>
#include <string>

#include "common/base/result.h"

namespace mc::kube {

class BearerToken {
 public:
  // With a `file`, the file is the token and `fixed` is unused. client-go does the same: the last
  // good read of BearerTokenFile wins over BearerToken. Without a file, `fixed` is the token. Empty
  // means the client sends none.
  BearerToken(std::string fixed, std::filesystem::path file);

  // Current gives the token to send now. It stats the file on every call, cheap beside a request.
  // It reads the file again only when the status changed. Any thread may call it. An unreadable
  // file is an error naming the file. So is a file of white space only. The next call tries again.
  Result<std::string> Current();

 private:
  // What stat said of the file at the last read. A rewrite in place changes the size or the times.
  // The kubelet's swap of a symbolic link changes the inode.
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
