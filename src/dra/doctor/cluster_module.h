// How the binary gets a ClusterApi.
// It opens the module media-capabilities-doctor-kube.so beside itself and asks it.
// cluster_module_entry.h says why it is a module.
#pragma once

#include <filesystem>
#include <memory>

#include "common/base/result.h"
#include "dra/doctor/cluster_api.h"

namespace mc::dra {

// OpenClusterApi loads `module` and opens the API for `options`.
// The default module is the one in the running binary's directory.
// It reads the kubeconfig, or the in-cluster service account; nothing is sent yet.
// Errors name the module file or the configuration at fault.
Result<std::unique_ptr<ClusterApi>> OpenClusterApi(const ClusterOptions& options,
                                                   const std::filesystem::path& module = {});

}  // namespace mc::dra
