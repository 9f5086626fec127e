#include "dra/doctor/cluster_module.h"

#include "common/base/module_entry_point.h"
#include "dra/doctor/cluster_module_entry.h"

namespace mc::dra {

Result<std::unique_ptr<ClusterApi>> OpenClusterApi(const ClusterOptions& options,
                                                   const std::filesystem::path& module) {
  Result<void*> symbol =
      OpenModuleEntryPoint(module, kClusterModuleFile, kClusterModuleEntry, "doctor");
  if (!symbol) return symbol.error();
  auto* entry = reinterpret_cast<decltype(&MediaCapabilitiesOpenClusterApi)>(*symbol);
  Error error;
  ClusterApi* api = entry(&options, sizeof options, &error);
  if (!api) return error;
  return std::unique_ptr<ClusterApi>(api);
}

}  // namespace mc::dra
