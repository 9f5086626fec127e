// The worker's local socket: a Unix stream socket in its state directory. It carries one JSON line
// per request and per answer (local_protocol.h). Who may use it is who may open the file. The
// worker makes it readable and writable by its own user and group only.
#pragma once

#include <chrono>
#include <string>

#include "common/base/result.h"
#include "worker/daemon/local_protocol.h"

namespace mc::worker {

// The socket's name in a worker's state directory.
std::string LocalSocketPath(const std::string& state_dir);

// ListenLocal binds a new socket at `path` and listens. A stale one left by a killed worker is
// replaced. A live one is not: that is another worker.
Result<int> ListenLocal(const std::string& path);

// LocalClient is one connection to the worker. The wrapper keeps it open for its whole life. The
// worker frees the wrapper's session slots when the connection closes, however the wrapper ends.
class LocalClient {
 public:
  static Result<LocalClient> Connect(const std::string& path);
  LocalClient(LocalClient&& other) noexcept;
  LocalClient& operator=(LocalClient&& other) noexcept;
  LocalClient(const LocalClient&) = delete;
  LocalClient& operator=(const LocalClient&) = delete;
  ~LocalClient();

  // Ask sends one request and waits for its answer, at most `deadline`.
  Result<LocalAnswer> Ask(const LocalRequest& request, std::chrono::milliseconds deadline);
  int fd() const { return fd_; }

 private:
  explicit LocalClient(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::string received_;
};

}  // namespace mc::worker
