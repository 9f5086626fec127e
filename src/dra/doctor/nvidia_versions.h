// The NVIDIA driver's version, as the kernel and the file system state it.
// The kernel module's first line in /proc/driver/nvidia/version is one of:
//
//   NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Jun  5 ...
//   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...
//
// The user-space libraries' file names carry the same number.
// An example: libcuda.so.1 -> libcuda.so.580.159.04.
// Both are outside input; the parsers name what they could not find.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

struct NvidiaKernelModule {
  std::string version;  // such as 580.159.04
  bool open = false;    // the open kernel module rather than the proprietary one
};

Result<NvidiaKernelModule> ParseNvidiaKernelVersion(std::string_view text);

// LibraryFileVersion gives the version in a library's file name after "<stem>.so.".
// For "libcuda.so.580.159.04" it is "580.159.04".
// Empty when the name has only its soname's number ("libcuda.so.1").
std::string LibraryFileVersion(std::string_view file_name, std::string_view stem);

}  // namespace mc::dra
