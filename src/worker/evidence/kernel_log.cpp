#include "worker/evidence/kernel_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/base/text.h"

namespace mc::worker {

std::optional<std::string> FindXid(std::string_view log,
                                   std::optional<std::string_view> pci_address) {
  // The driver writes the address without its function: "(PCI:0000:01:00)".
  std::string named;
  if (pci_address) {
    const std::string address = AsciiLower(*pci_address);
    named = "nvrm: xid (pci:" + address.substr(0, address.rfind('.')) + ")";
  }
  std::optional<std::string> last;
  while (!log.empty()) {
    const std::size_t newline = log.find('\n');
    const std::string_view line = log.substr(0, newline);
    log.remove_prefix(newline == std::string_view::npos ? log.size() : newline + 1);
    if (line.find("NVRM: Xid") == std::string_view::npos) continue;
    if (pci_address && AsciiLower(line).find(named) == std::string::npos) continue;
    last = PrintableLine(line);
  }
  return last;
}

Result<std::string> ReadKernelLog(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    const std::string why = "cannot read the kernel log " + path + ": " + std::strerror(error);
    return error == EACCES || error == EPERM ? PermissionDenied(why) : Unavailable(why);
  }
  struct stat status {};
  const bool records = fstat(fd, &status) == 0 && S_ISCHR(status.st_mode);
  std::string text;
  // /dev/kmsg gives one record per read and EAGAIN at the end; a file gives its bytes. A
  // record that ran past its buffer (EPIPE: overwritten while reading) is skipped.
  char buffer[8192];
  for (std::size_t reads = 0; reads < 100000; ++reads) {
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
      if (records && text.back() != '\n') text.push_back('\n');
      continue;
    }
    if (got < 0 && errno == EPIPE) continue;
    if (got < 0 && errno == EINTR) continue;
    break;
  }
  close(fd);
  return text;
}

}  // namespace mc::worker
