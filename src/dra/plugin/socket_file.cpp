#include "dra/plugin/socket_file.h"

#include <system_error>

namespace mc::dra {

namespace fs = std::filesystem;

Result<void> PrepareSocketPath(const fs::path& socket) {
  if (socket.string().size() > kMaxSocketPath) {
    return Error{"socket path " + socket.string() + " is longer than the " +
                 std::to_string(kMaxSocketPath) + " bytes a unix socket allows"};
  }
  std::error_code error;
  fs::create_directories(socket.parent_path(), error);
  if (error) return Error{"creating " + socket.parent_path().string() + ": " + error.message()};
  const fs::file_status status = fs::symlink_status(socket, error);
  if (status.type() == fs::file_type::not_found) return Ok();
  if (error) return Error{"looking at " + socket.string() + ": " + error.message()};
  if (status.type() != fs::file_type::socket) {
    return Error{socket.string() + " exists and is not a socket; not removing it"};
  }
  fs::remove(socket, error);
  if (error) return Error{"removing the stale socket " + socket.string() + ": " + error.message()};
  return Ok();
}

void RemoveSocket(const fs::path& socket) {
  std::error_code ignored;
  fs::remove(socket, ignored);
}

}  // namespace mc::dra
