// The workers' pods as the API server lists them (a core/v1 PodList), reduced to what the
// pool manager needs. A pure function: the answer is outside input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "pool/kube/kubernetes_pool.h"

namespace mc::pool {

// ParseWorkerPods reads a PodList and keeps the pods that `statefulset` controls.
// The controller is the ownerReference with controller: true.
// A pod that only shares the selector's labels is no worker of it.
// The pods come back by ordinal.
// A member of the wrong type is an error naming it.
// An example: "pods: items[1].status.podIP: expected a string".
// Members the manager does not need are not read.
Result<std::vector<WorkerPod>> ParseWorkerPods(std::string_view body,
                                               const std::string& statefulset);

// OrdinalOf is a StatefulSet pod's ordinal from its name, STATEFULSET-N; -1 when the name is
// not of that form.
int OrdinalOf(std::string_view pod_name, std::string_view statefulset);

}  // namespace mc::pool
