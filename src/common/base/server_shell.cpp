#include "common/base/server_shell.h"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>

namespace mc {

Result<std::shared_ptr<WakeSignal>> WakeSignal::Create() {
  const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) return Internal(std::string("an eventfd to wake a server: ") + std::strerror(errno));
  return std::shared_ptr<WakeSignal>(new WakeSignal(fd));
}

WakeSignal::~WakeSignal() { close(fd_); }

void WakeSignal::Wake() const {
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = write(fd_, &one, sizeof one);
}

void WakeSignal::Clear() const {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t got = read(fd_, &count, sizeof count);
}

Result<std::unique_ptr<ServerShell>> ServerShell::Start(int listener, Loop loop,
                                                        std::shared_ptr<WakeSignal> wake) {
  if (!wake) {
    Result<std::shared_ptr<WakeSignal>> created = WakeSignal::Create();
    if (!created) {
      close(listener);
      return created.error();
    }
    wake = std::move(created).value();
  }
  std::unique_ptr<ServerShell> shell(new ServerShell(listener, std::move(wake)));
  try {
    shell->thread_ = std::thread([raw = shell.get(), loop = std::move(loop)] { loop(*raw); });
  } catch (const std::system_error& error) {
    return Internal(std::string("no thread for a server: ") + error.what());
  }
  return shell;
}

ServerShell::~ServerShell() {
  Stop();
  if (listener_ >= 0) close(listener_);
}

void ServerShell::Stop() {
  if (stopping_.exchange(true)) return;
  wake_->Wake();
  if (thread_.joinable()) thread_.join();
}

void ServerShell::CloseListener() {
  if (listener_ >= 0) close(listener_);
  listener_ = -1;
}

int ServerShell::Accept() const {
  if (listener_ < 0) return -1;
  return accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

std::vector<pollfd> ServerShell::PollHead(bool accepting) const {
  return {{.fd = wake_->fd(), .events = POLLIN, .revents = 0},
          {.fd = accepting ? listener_ : -1, .events = POLLIN, .revents = 0}};
}

}  // namespace mc
