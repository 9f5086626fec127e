// How the binary gets a KubernetesPool: it opens the module media-capabilities-pool-kube.so
// beside itself (pool_module_entry.h says why it is a module) and asks it for one. This is
// the whole of what the pool service calls to reach Kubernetes:
//
//   Result<std::unique_ptr<KubernetesPool>> pool = OpenKubernetesPool(options);
//   KubernetesChannel channel(**pool, worker_api_channel, {.endpoints = ...});
//   ... (*pool)->WorkerPods() each cycle, ReachableEndpoints() for the status reads ...
#pragma once

#include <filesystem>
#include <memory>

#include "common/base/result.h"
#include "pool/kube/kubernetes_pool.h"

namespace mc::pool {

// OpenKubernetesPool loads `module` and opens a pool for `options` through it.
// By default the module is the one in the running binary's own directory.
// It reads the kubeconfig, or the in-cluster service account; nothing is sent yet.
// The module stays loaded until the process exits.
// Errors name the module file or the option at fault.
Result<std::unique_ptr<KubernetesPool>> OpenKubernetesPool(
    const KubernetesPoolOptions& options, const std::filesystem::path& module = {});

}  // namespace mc::pool
