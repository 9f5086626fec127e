#include "worker/daemon/local_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mc::worker {
namespace {

// An answer is a few kilobytes (the device's attributes). Anything much larger is not one.
constexpr std::size_t kMaxAnswerBytes = 1 << 20;

Result<sockaddr_un> AddressOf(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path)
    return InvalidInput("the socket path " + path + " is empty or longer than " +
                        std::to_string(sizeof address.sun_path - 1) + " bytes");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  return address;
}

Result<int> ConnectTo(const std::string& path) {
  Result<sockaddr_un> address = AddressOf(path);
  if (!address) return address.error();
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Internal(std::string("a Unix socket: ") + std::strerror(errno));
  if (connect(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address) != 0) {
    const int error = errno;
    close(fd);
    if (error == ENOENT) return NotFound("no worker socket at " + path);
    return Unavailable("cannot reach the worker at " + path + ": " + std::strerror(error));
  }
  return fd;
}

}  // namespace

std::string LocalSocketPath(const std::string& state_dir) {
  return (std::filesystem::path(state_dir) / "worker.sock").string();
}

Result<int> ListenLocal(const std::string& path) {
  Result<sockaddr_un> address = AddressOf(path);
  if (!address) return address.error();
  if (Result<int> live = ConnectTo(path)) {
    close(*live);
    return Conflict("another worker is listening on " + path);
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return Internal(std::string("a Unix socket: ") + std::strerror(errno));
  // The mask makes the file rw for user and group only, from the moment it exists.
  const mode_t previous = umask(0117);
  const int bound = bind(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address);
  const int bind_error = errno;
  umask(previous);
  if (bound != 0 || listen(fd, 64) != 0) {
    const int error = bound != 0 ? bind_error : errno;
    close(fd);
    return Unavailable("cannot listen on " + path + ": " + std::strerror(error));
  }
  return fd;
}

Result<LocalClient> LocalClient::Connect(const std::string& path) {
  Result<int> fd = ConnectTo(path);
  if (!fd) return fd.error();
  return LocalClient(*fd);
}

LocalClient::LocalClient(LocalClient&& other) noexcept
    : fd_(other.fd_), received_(std::move(other.received_)) {
  other.fd_ = -1;
}

LocalClient& LocalClient::operator=(LocalClient&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    received_ = std::move(other.received_);
    other.fd_ = -1;
  }
  return *this;
}

LocalClient::~LocalClient() {
  if (fd_ >= 0) close(fd_);
}

Result<LocalAnswer> LocalClient::Ask(const LocalRequest& request,
                                     std::chrono::milliseconds deadline) {
  const std::string line = LocalRequestLine(request);
  std::size_t sent = 0;
  while (sent < line.size()) {
    const ssize_t n = send(fd_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Unavailable(std::string("the worker hung up: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(n);
  }
  const auto until = std::chrono::steady_clock::now() + deadline;
  while (true) {
    if (const std::size_t end = received_.find('\n'); end != std::string::npos) {
      const std::string answer = received_.substr(0, end);
      received_.erase(0, end + 1);
      Result<LocalAnswer> parsed = ParseLocalAnswer(answer);
      if (!parsed) return InvalidInput("the worker's answer: " + parsed.error_message());
      return parsed;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return DeadlineExceeded("the worker did not answer in time");
    pollfd watch{.fd = fd_, .events = POLLIN, .revents = 0};
    const int ready = poll(&watch, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[4096];
    const ssize_t got = read(fd_, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Unavailable("the worker closed the connection");
    received_.append(buffer, static_cast<std::size_t>(got));
    if (received_.size() > kMaxAnswerBytes)
      return InvalidInput("the worker's answer is larger than 1 MiB");
  }
}

}  // namespace mc::worker
