#include "doctor/cluster_module.h"

#include <dlfcn.h>

#include <system_error>

#include "doctor/cluster_module_entry.h"

namespace mc::doctor {

Result<std::unique_ptr<ClusterApi>> OpenClusterApi(const ClusterOptions& options,
                                                   const std::filesystem::path& module) {
  std::filesystem::path file = module;
  if (file.empty()) {
    std::error_code error;
    const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) {
      return Internal("doctor: cannot find this binary's own path (/proc/self/exe): " +
                      error.message());
    }
    file = binary.parent_path() / kClusterModuleFile;
  }
  // The module stays loaded until the process exits: the API it made runs its code, and
  // unloading it would run its libraries' destructors for nothing.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    return Unavailable(std::string("doctor: cannot load the cluster module: ") + dlerror());
  }
  auto* entry = reinterpret_cast<decltype(&MediaCapabilitiesOpenClusterApi)>(
      dlsym(handle, kClusterModuleEntry));
  if (!entry) return Internal("doctor: " + file.string() + " has no " + kClusterModuleEntry);
  Error error;
  ClusterApi* api = entry(&options, sizeof options, &error);
  if (!api) return error;
  return std::unique_ptr<ClusterApi>(api);
}

}  // namespace mc::doctor
