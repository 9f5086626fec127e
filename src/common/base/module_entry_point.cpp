#include "common/base/module_entry_point.h"

#include <dlfcn.h>

#include <system_error>

namespace mc {

Result<void*> OpenModuleEntryPoint(const std::filesystem::path& module, const char* file_name,
                                   const char* entry, const std::string& what) {
  std::filesystem::path file = module;
  if (file.empty()) {
    std::error_code error;
    const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) {
      return Internal(what +
                      ": cannot find this binary's own path (/proc/self/exe): " + error.message());
    }
    file = binary.parent_path() / file_name;
  }
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return Unavailable(what + ": cannot load " + file.string() + ": " + dlerror());
  void* symbol = dlsym(handle, entry);
  if (!symbol) return Internal(what + ": " + file.string() + " has no " + entry);
  return symbol;
}

}  // namespace mc
