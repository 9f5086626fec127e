// How the binary gets a ClusterApi: it opens the module media-capabilities-doctor-kube.so
// beside itself (cluster_module_entry.h says why it is a module) and asks it for one.
#pragma once

#include <filesystem>
#include <memory>

#include "common/base/result.h"
#include "dra/doctor/cluster_api.h"

namespace mc::dra {

// OpenClusterApi loads `module` (by default the one in the running binary's directory) and
// opens the API for `options`: the kubeconfig is read, or the in-cluster service account,
// and nothing is sent yet. Errors name the module file or the configuration at fault.
Result<std::unique_ptr<ClusterApi>> OpenClusterApi(const ClusterOptions& options,
                                                   const std::filesystem::path& module = {});

}  // namespace mc::dra
