// The kernel log's word on the GPU. An Xid record means the NVIDIA driver reported a GPU error.
// Examples: the GPU fell off the bus, a double-bit ECC error, a hang. The worker then goes OFFLINE
// until an operator enables it again. Only the driver's own record counts. That is a /dev/kmsg
// record of the kernel facility, whose message starts "NVRM: Xid (PCI:0000:01:00): 79, ...". The
// kernel log is global, and other text reaches it:
// - a segfault report names the file it hit;
// - anyone may write to /dev/kmsg as facility user.
// So a record that merely contains those words is not the driver's. The driver names the GPU by its
// PCI address. So one GPU's error never takes its sibling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

// One Xid record of the kernel log.
struct XidRecord {
  // The record's sequence number in the kernel log. Each record has its own, ever rising until the
  // machine restarts.
  std::uint64_t sequence = 0;
  // The record's message, made printable: "NVRM: Xid (PCI:0000:01:00): 79, ...".
  std::string message;
};

// FindXid gives the last Xid record of a kernel log's text that:
// - names the GPU at `pci_address` ("0000:01:00.0", any case);
// - comes after the record `acknowledged` (an operator's enable).
// Else nullopt. The text is in /dev/kmsg's record format, "PRI,SEQ,TS,FLAGS;MESSAGE" a line. Where
// the address is not known, every Xid record counts. An example is a probe that found no GPU.
std::optional<XidRecord> FindXid(std::string_view log, std::optional<std::string_view> pci_address,
                                 std::optional<std::uint64_t> acknowledged = std::nullopt);

// How to let the worker read /dev/kmsg where it may not. Debian sets kernel.dmesg_restrict=1, under
// which reading it takes CAP_SYSLOG, and the shipped unit's DynamicUser has no capability and no
// access to the device.
inline constexpr const char* kAllowKernelLog =
    "allow it with a drop-in for the worker's unit (systemctl edit media-worker@N): "
    "AmbientCapabilities=CAP_SYSLOG, CapabilityBoundingSet=CAP_SYSLOG and DeviceAllow=/dev/kmsg r; "
    "or set kernel.dmesg_restrict=0 (/etc/sysctl.d/) for a worker run by hand. Until then a GPU "
    "that falls off the bus shows only as the failures that follow (docs/troubleshooting.md)";

// ReadKernelLog reads what the kernel log holds now. It reads from /dev/kmsg (its records, without
// waiting for new ones) or from a file of such records. Reading /dev/kmsg may need privileges. The
// error then says so, and how to allow it (kAllowKernelLog). The caller records that the log was
// not checked.
Result<std::string> ReadKernelLog(const std::string& path);

}  // namespace mc::worker
