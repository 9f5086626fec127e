// The two kinds of sysfs file discovery reads, for render nodes and NVIDIA GPUs alike:
// - number files, such as `vendor` ("0x8086\n");
// - links, such as `driver`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace mc::probe {

// ReadSysfsHex reads a number file as lowercase hex digits, left-padded to `digits`. Empty when the
// file is unreadable or holds something else. `problem` then holds the reason.
std::string ReadSysfsHex(const std::filesystem::path& file, std::size_t digits,
                         std::string& problem);

// ReadSubsystemIds reads a PCI device's subsystem_vendor and subsystem_device files as "1043:889d".
// Empty when either file is missing; they are optional. Empty with the reason in `problem` when one
// holds something else.
std::string ReadSubsystemIds(const std::filesystem::path& device, std::string& problem);

// LinkTargetName gives the last component of a link's target. Example: "i915" for a device's
// `driver`. Empty when it is no link.
std::string LinkTargetName(const std::filesystem::path& link);

}  // namespace mc::probe
