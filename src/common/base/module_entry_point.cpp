#include "common/base/module_entry_point.h"

#include <dlfcn.h>

#include "common/base/self_executable.h"

namespace mc {

Result<void*> OpenModuleEntryPoint(const std::filesystem::path& module, const char* file_name,
                                   const char* entry, const std::string& what) {
  std::filesystem::path file = module;
  if (file.empty()) {
    Result<std::filesystem::path> binary = SelfExecutablePath();
    if (!binary) return binary.error().WithContext(what);
    file = binary->parent_path() / file_name;
  }
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return Unavailable(what + ": cannot load " + file.string() + ": " + dlerror());
  void* symbol = dlsym(handle, entry);
  if (!symbol) return Internal(what + ": " + file.string() + " has no " + entry);
  return symbol;
}

}  // namespace mc
