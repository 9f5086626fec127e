// The two kinds of sysfs file that discovery reads, for render nodes and for NVIDIA GPUs
// alike: number files such as `vendor` ("0x8086\n") and links such as `driver`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace mc::probe {

// ReadSysfsHex reads a number file as lowercase hex digits, left-padded to `digits`;
// empty, with the reason in `problem`, when the file cannot be read or holds something
// else.
std::string ReadSysfsHex(const std::filesystem::path& file, std::size_t digits,
                         std::string& problem);

// LinkTargetName gives the last component of a link's target, such as "i915" for a
// device's `driver`; empty when it is no link.
std::string LinkTargetName(const std::filesystem::path& link);

}  // namespace mc::probe
