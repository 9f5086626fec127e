#include "cli/agent_module.h"

#include <dlfcn.h>

#include <filesystem>
#include <iostream>
#include <system_error>

#include "agent/module_entry.h"

namespace mc {

int RunAgentModule(AgentCommand command) {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    std::cerr << "agent: cannot find this binary's own path (/proc/self/exe): " << error.message()
              << '\n';
    return 1;
  }
  const std::filesystem::path module = binary.parent_path() / kAgentModuleFile;
  void* handle = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::cerr << "agent: cannot load the agent module: " << dlerror() << '\n';
    return 1;
  }
  auto* entry =
      reinterpret_cast<decltype(&MediaCapabilitiesAgentMain)>(dlsym(handle, kAgentModuleEntry));
  if (!entry) {
    std::cerr << "agent: " << module.string() << " has no " << kAgentModuleEntry << '\n';
    return 1;
  }
  // The module stays loaded until the process exits: its threads are gone by then, but
  // unloading it would run its libraries' destructors for nothing.
  return entry(&command, sizeof command);
}

}  // namespace mc
