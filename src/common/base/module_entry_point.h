// The binary's modules are shared objects beside the binary:
// - the agent;
// - the pool's Kubernetes pool;
// - the doctor's cluster checks.
//
// Only the subcommand that needs a module's libraries opens it. The root CMakeLists.txt says why.
// OpenModuleEntryPoint is how each subcommand opens its module. It finds the one function the
// module exports.
#pragma once

#include <filesystem>
#include <string>

#include "common/base/result.h"

namespace mc {

// OpenModuleEntryPoint loads `module` and gives the address of its symbol `entry`. An empty
// `module` means the file `file_name` beside this binary. The module stays loaded until the process
// exits. What it made runs its code. Unloading it would run its libraries' destructors for nothing.
// Every error begins with `what`, such as "agent".
Result<void*> OpenModuleEntryPoint(const std::filesystem::path& module, const char* file_name,
                                   const char* entry, const std::string& what);

}  // namespace mc
