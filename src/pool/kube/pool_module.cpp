#include "pool/kube/pool_module.h"

#include "common/base/module_entry_point.h"
#include "pool/kube/pool_module_entry.h"

namespace mc::pool {

Result<std::unique_ptr<KubernetesPool>> OpenKubernetesPool(const KubernetesPoolOptions& options,
                                                           const std::filesystem::path& module) {
  Result<void*> symbol =
      OpenModuleEntryPoint(module, kPoolModuleFile, kPoolModuleEntry, "kubernetes pool");
  if (!symbol) return symbol.error();
  auto* entry = reinterpret_cast<decltype(&MediaCapabilitiesOpenKubernetesPool)>(*symbol);
  Error error;
  KubernetesPool* pool = entry(&options, sizeof options, &error);
  if (!pool) return error;
  return std::unique_ptr<KubernetesPool>(pool);
}

}  // namespace mc::pool
