#include "pool_kube/pool_module.h"

#include <dlfcn.h>

#include <system_error>

#include "pool_kube/pool_module_entry.h"

namespace mc::pool_kube {

Result<std::unique_ptr<KubernetesPool>> OpenKubernetesPool(const KubernetesPoolOptions& options,
                                                           const std::filesystem::path& module) {
  std::filesystem::path file = module;
  if (file.empty()) {
    std::error_code error;
    const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) {
      return Internal("kubernetes pool: cannot find this binary's own path (/proc/self/exe): " +
                      error.message());
    }
    file = binary.parent_path() / kPoolModuleFile;
  }
  // The module stays loaded until the process exits: the pools it made run its code, and
  // unloading it would run its libraries' destructors for nothing.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return Unavailable(std::string("kubernetes pool: cannot load the module: ") + dlerror());
  auto* entry = reinterpret_cast<decltype(&MediaCapabilitiesOpenKubernetesPool)>(
      dlsym(handle, kPoolModuleEntry));
  if (!entry) return Internal("kubernetes pool: " + file.string() + " has no " + kPoolModuleEntry);
  Error error;
  KubernetesPool* pool = entry(&options, sizeof options, &error);
  if (!pool) return error;
  return std::unique_ptr<KubernetesPool>(pool);
}

}  // namespace mc::pool_kube
