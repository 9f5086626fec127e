// The one symbol of the module media-capabilities-doctor-kube.so.
// The module holds the ClusterApi over the project's API client (src/common/kube).
// That client brings its own HTTP client and OpenSSL.
// So the binary, and every `probe` it runs, never loads the module.
// Only cluster_module.h opens the module and calls this.
#pragma once

#include <cstddef>

#include "common/base/result.h"
#include "dra/doctor/cluster_api.h"

// `options_size` is sizeof(ClusterOptions) as the binary was built.
// So a module built from other sources refuses instead of misreading it.
// On success it returns an API that the caller owns and deletes.
// On failure it returns null, with `error` filled.
extern "C" mc::dra::ClusterApi* MediaCapabilitiesOpenClusterApi(
    const mc::dra::ClusterOptions* options, std::size_t options_size, mc::Error* error);

namespace mc::dra {

inline constexpr char kClusterModuleFile[] = "media-capabilities-doctor-kube.so";
inline constexpr char kClusterModuleEntry[] = "MediaCapabilitiesOpenClusterApi";

}  // namespace mc::dra
