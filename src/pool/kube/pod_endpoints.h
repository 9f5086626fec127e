// Which worker a pod is, and where its status and control API listen.
// It turns the StatefulSet's pods into the endpoints the pool service talks to.
#pragma once

#include <string>
#include <vector>

#include "pool/kube/kubernetes_pool.h"
#include "pool/service/worker_endpoint.h"

namespace mc::pool {

struct EndpointSettings {
  // The port of the worker's /status and /metrics (deploy/worker: --listen=0.0.0.0:9464).
  int port = 9464;
  // The port of its control API, over TLS (--control-listen=0.0.0.0:9466).
  int control_port = 9466;
  // The authority the workers' control certificates chain to.
  // And the pool's control key, from which each pod's own token is derived.
  // Both are files of the Secrets mounted into the manager's pod.
  std::string control_ca_file;
  std::string control_key_file;
  // What follows the pod's name in the name its certificate holds: ".STATEFULSET.NAMESPACE.svc",
  // the pod's stable DNS name under the StatefulSet's headless service.
  std::string tls_name_suffix;
};

// RunnerNameOf is the worker's name in PeerTube and in the policy.
// It is the pod's annotation media.liken.sh/runner-name, else the pod's own name.
// deploy/worker's pods name their runner so (PT_WORKER_RUNNER_NAME from metadata.name).
std::string RunnerNameOf(const WorkerPod& pod);

// EndpointOf is the pod as a worker endpoint:
//  - http://POD-IP:PORT for its status;
//  - https://POD-IP:CONTROL-PORT for its control API, checked against the pod's stable name.
// An IPv6 address goes in brackets. The urls are empty while the pod has no IP.
// Alone, a pod is not wakeable: the StatefulSet's scale brings a worker up.
pool::WorkerEndpoint EndpointOf(const WorkerPod& pod, const EndpointSettings& settings);

// ReachableEndpoints are the endpoints of the pods that can answer now, by ordinal.
// Those are the pods with an IP and no deletion under way.
// The pod of the highest ordinal is wakeable: a scale-down gives it back first.
// So the policy may put it to sleep after it rests SPARE for `wake.sleep_after`.
// A lower ordinal cannot be given back before it, so it is not wakeable.
std::vector<pool::WorkerEndpoint> ReachableEndpoints(const std::vector<WorkerPod>& pods,
                                                     const EndpointSettings& settings);

// UnservableLines is one line for each pod the scheduler has not placed.
// A line names the StatefulSet, the pod, and the scheduler's own words.
// The StatefulSet is the workers' class: one GPU claim for all its pods.
// A cluster owner reads these lines in `pool status` and the manager's log.
// No worker of that class runs until a GPU that fits its claim joins, or the claim asks less.
std::vector<std::string> UnservableLines(const std::vector<WorkerPod>& pods,
                                         const std::string& statefulset);

}  // namespace mc::pool
