// The one symbol of the module media-capabilities-doctor-kube.so, which holds the ClusterApi over
// the project's API client (src/common/kube, over its own HTTP client and OpenSSL) so that the
// binary, and every `probe` it runs, never loads it. cluster_module.h opens the module and calls
// this; nothing else should.
#pragma once

#include <cstddef>

#include "common/base/result.h"
#include "dra/doctor/cluster_api.h"

// `options_size` is sizeof(ClusterOptions) as the binary was built, so that a module built
// from other sources refuses instead of misreading it. On success it returns an API that the
// caller owns and deletes; on failure null, with `error` filled.
extern "C" mc::dra::ClusterApi* MediaCapabilitiesOpenClusterApi(
    const mc::dra::ClusterOptions* options, std::size_t options_size, mc::Error* error);

namespace mc::dra {

inline constexpr char kClusterModuleFile[] = "media-capabilities-doctor-kube.so";
inline constexpr char kClusterModuleEntry[] = "MediaCapabilitiesOpenClusterApi";

}  // namespace mc::dra
