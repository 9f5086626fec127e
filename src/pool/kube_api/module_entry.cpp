// The one symbol the Kubernetes pool module exports (src/pool/kube/pool_module_entry.h).
#include <memory>
#include <utility>

#include "pool/kube/pool_module_entry.h"
#include "pool/kube_api/api_pool.h"

extern "C" __attribute__((visibility("default"))) mc::pool::KubernetesPool*
MediaCapabilitiesOpenKubernetesPool(const mc::pool::KubernetesPoolOptions* options,
                                    std::size_t options_size, mc::Error* error) {
  if (options_size != sizeof(mc::pool::KubernetesPoolOptions)) {
    *error = mc::Internal(
        "kubernetes pool: the pool module and the binary were built from different sources; "
        "install them together");
    return nullptr;
  }
  mc::Result<std::unique_ptr<mc::pool::ApiKubernetesPool>> pool =
      mc::pool::ApiKubernetesPool::Open(*options);
  if (!pool) {
    *error = pool.error();
    return nullptr;
  }
  return std::move(pool).value().release();
}
