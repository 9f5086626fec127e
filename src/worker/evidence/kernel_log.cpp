#include "worker/evidence/kernel_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "common/base/text.h"

namespace mc::worker {
namespace {

// The kernel's own facility. A write to /dev/kmsg cannot take it.
constexpr std::uint64_t kKernelFacility = 0;
constexpr std::string_view kXidStart = "NVRM: Xid (PCI:";

// A /dev/kmsg record's head: the priority (facility and level) and the sequence number.
struct RecordHead {
  std::uint64_t priority = 0;
  std::uint64_t sequence = 0;
};

// ReadNumber takes a decimal number off the front of `text`. False when there is none.
bool ReadNumber(std::string_view& text, std::uint64_t& out) {
  std::size_t digits = 0;
  out = 0;
  while (digits < text.size() && digits < 19 && text[digits] >= '0' && text[digits] <= '9')
    out = out * 10 + static_cast<std::uint64_t>(text[digits++] - '0');
  text.remove_prefix(digits);
  return digits > 0;
}

// SplitRecord reads "PRI,SEQ,TS,FLAGS[,...];MESSAGE" into its head and message.
std::optional<RecordHead> SplitRecord(std::string_view line, std::string_view& message) {
  const std::size_t semicolon = line.find(';');
  if (semicolon == std::string_view::npos) return std::nullopt;
  std::string_view fields = line.substr(0, semicolon);
  RecordHead head;
  if (!ReadNumber(fields, head.priority) || !fields.starts_with(',')) return std::nullopt;
  fields.remove_prefix(1);
  if (!ReadNumber(fields, head.sequence) || !fields.starts_with(',')) return std::nullopt;
  message = line.substr(semicolon + 1);
  return head;
}

// XidAddress is the bus address of a driver's Xid message ("0000:01:00"). Empty when the message is
// not one. An Xid message starts with the driver's words, then the address, "): ", a number.
std::string XidAddress(std::string_view message) {
  if (!message.starts_with(kXidStart)) return "";
  message.remove_prefix(kXidStart.size());
  const std::size_t close = message.find("): ");
  if (close == std::string_view::npos || close == 0 || close > 16) return "";
  const std::string address = AsciiLower(message.substr(0, close));
  std::string_view rest = message.substr(close + 3);
  std::uint64_t code = 0;
  if (!ReadNumber(rest, code) || !(rest.empty() || rest.starts_with(','))) return "";
  return address;
}

}  // namespace

std::optional<XidRecord> FindXid(std::string_view log, std::optional<std::string_view> pci_address,
                                 std::optional<std::uint64_t> acknowledged) {
  // The driver writes the address without its function: "(PCI:0000:01:00)".
  std::string named;
  if (pci_address) {
    named = AsciiLower(*pci_address);
    named = named.substr(0, named.rfind('.'));
  }
  std::optional<XidRecord> last;
  while (!log.empty()) {
    const std::size_t newline = log.find('\n');
    const std::string_view line = log.substr(0, newline);
    log.remove_prefix(newline == std::string_view::npos ? log.size() : newline + 1);
    std::string_view message;
    const std::optional<RecordHead> head = SplitRecord(line, message);
    if (!head || head->priority >> 3 != kKernelFacility) continue;
    if (acknowledged && head->sequence <= *acknowledged) continue;
    const std::string address = XidAddress(message);
    if (address.empty() || (pci_address && address != named)) continue;
    // Records are in the order of their numbers. One read twice is still one record.
    if (!last || head->sequence >= last->sequence)
      last = XidRecord{.sequence = head->sequence, .message = PrintableLine(message)};
  }
  return last;
}

Result<std::string> ReadKernelLog(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    const std::string why = "cannot read the kernel log " + path + ": " + std::strerror(error);
    if (error == EACCES || error == EPERM)
      return PermissionDenied(why + ": " + std::string(kAllowKernelLog));
    return Unavailable(why);
  }
  struct stat status {};
  const bool records = fstat(fd, &status) == 0 && S_ISCHR(status.st_mode);
  std::string text;
  // /dev/kmsg gives one record per read, and EAGAIN at the end. A file gives its bytes. A record
  // that ran past its buffer is skipped (EPIPE: overwritten while reading).
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
