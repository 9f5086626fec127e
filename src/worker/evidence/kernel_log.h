// The kernel log's word on the GPU: an `NVRM: Xid` line means the NVIDIA driver reported a GPU
// error (the GPU fell off the bus, a double-bit ECC error, a hang), and the worker goes
// OFFLINE until an operator enables it again. The driver names the GPU by its PCI address,
// "NVRM: Xid (PCI:0000:01:00): 79, ...", so that one GPU's error never takes its sibling.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

// FindXid gives the last `NVRM: Xid` line of a kernel log's text that names the GPU at
// `pci_address` ("0000:01:00.0", any case), or nullopt. Where the address is not known, as
// when the probe found no GPU, every Xid line counts.
std::optional<std::string> FindXid(std::string_view log,
                                   std::optional<std::string_view> pci_address);

// ReadKernelLog reads what the kernel log holds now, from /dev/kmsg (its records, without
// waiting for new ones) or from a text file such as a saved dmesg. Reading /dev/kmsg may need
// privileges; the error then says so and the caller records that the log was not checked.
Result<std::string> ReadKernelLog(const std::string& path);

}  // namespace mc::worker
