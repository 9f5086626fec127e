// The binary's modules (the agent, the pool's Kubernetes pool, the doctor's cluster checks) are
// shared objects beside the binary, each opened only by the subcommand that needs its libraries
// (the root CMakeLists.txt says why). OpenModuleEntryPoint is how each subcommand opens its module
// and finds the one function the module exports.
#pragma once

#include <filesystem>
#include <string>

#include "common/base/result.h"

namespace mc {

// OpenModuleEntryPoint loads `module` (when empty, the file `file_name` beside this binary,
// found through /proc/self/exe) and gives the address of its symbol `entry`. The module stays
// loaded until the process exits: what it made runs its code, and unloading it would run its
// libraries' destructors for nothing. Every error begins with `what`, such as "agent".
Result<void*> OpenModuleEntryPoint(const std::filesystem::path& module, const char* file_name,
                                   const char* entry, const std::string& what);

}  // namespace mc
