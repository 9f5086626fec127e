// Which worker a pod is, and where its status and control API listen: the bridge from what
// Kubernetes says of the StatefulSet's pods to the endpoints the pool service talks to.
#pragma once

#include <string>
#include <vector>

#include "pool_kube/kubernetes_pool.h"
#include "pool_service/worker_endpoint.h"

namespace mc::pool_kube {

struct EndpointSettings {
  // The port of the worker's status and control API (deploy/worker: --listen=0.0.0.0:9464).
  int port = 9464;
  // The file holding the control API's token, the Secret mounted into the manager's pod.
  std::string control_token_file;
};

// RunnerNameOf is the worker's name in PeerTube and in the policy: the pod's annotation
// media.liken.sh/runner-name when it has one, else the pod's own name, which is what
// deploy/worker's pods give their runner (PT_WORKER_RUNNER_NAME from metadata.name).
std::string RunnerNameOf(const WorkerPod& pod);

// EndpointOf is the pod as a worker endpoint: http://POD-IP:PORT (an IPv6 address in
// brackets), or an empty url while the pod has no IP. A pod is never wakeable: the
// StatefulSet's scale, not the pod, brings a worker up.
pool_service::WorkerEndpoint EndpointOf(const WorkerPod& pod, const EndpointSettings& settings);

// ReachableEndpoints are the endpoints of the pods that can answer now, by ordinal: those
// with an IP and no deletion under way.
std::vector<pool_service::WorkerEndpoint> ReachableEndpoints(const std::vector<WorkerPod>& pods,
                                                             const EndpointSettings& settings);

}  // namespace mc::pool_kube
