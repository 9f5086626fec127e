// The one symbol of the module media-capabilities-pool-kube.so.
// The module holds the KubernetesPool over the API client (src/common/kube).
// That client uses the project's own HTTP client and OpenSSL.
// So the binary, and every `probe` it runs, never loads them.
// pool_module.h opens the module and calls this; nothing else should.
#pragma once

#include <cstddef>

#include "common/base/result.h"
#include "pool/kube/kubernetes_pool.h"

// `options_size` is sizeof(KubernetesPoolOptions) as the binary was built, so that a module
// built from other sources refuses instead of misreading it. On success it returns a pool
// that the caller owns and deletes (its destructor is the module's); on failure it returns
// null and fills `error`.
extern "C" mc::pool::KubernetesPool* MediaCapabilitiesOpenKubernetesPool(
    const mc::pool::KubernetesPoolOptions* options, std::size_t options_size, mc::Error* error);

namespace mc::pool {

inline constexpr char kPoolModuleFile[] = "media-capabilities-pool-kube.so";
inline constexpr char kPoolModuleEntry[] = "MediaCapabilitiesOpenKubernetesPool";

}  // namespace mc::pool
