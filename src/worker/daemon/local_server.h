// LocalServer serves the worker's local socket (local_socket.h) on a thread of its own. It reads
// one request per line from each connection. It hands it to the worker and writes the answer back.
// It serves only peers of the worker's own user (SO_PEERCRED). It drops one whose request or unread
// answers pass 256 KiB. A connection's end is reported once, however it comes:
// - the wrapper exits;
// - it is killed;
// - its parent dies.
// What the connection held is then given back.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/base/result.h"
#include "common/base/server_shell.h"
#include "worker/daemon/local_protocol.h"

namespace mc::worker {

class LocalServer {
 public:
  // The handler answers at once. It runs on the server's thread.
  using Handler = std::function<LocalAnswer(std::uint64_t connection, const LocalRequest&)>;
  using Closed = std::function<void(std::uint64_t connection)>;

  static Result<std::unique_ptr<LocalServer>> Start(const std::string& path, Handler handler,
                                                    Closed closed);
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  const std::string& path() const { return path_; }

 private:
  LocalServer() = default;
  void Serve(ServerShell& shell) const;
  // The answer to one request line. A handler that throws answers an error instead.
  LocalAnswer AnswerLine(std::uint64_t connection, const std::string& line) const;

  std::string path_;
  Handler handler_;
  Closed closed_;
  // Last, so it stops before the members its loop reads go.
  std::unique_ptr<ServerShell> shell_;
};

}  // namespace mc::worker
