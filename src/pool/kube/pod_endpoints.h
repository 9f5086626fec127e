// Which worker a pod is, and where its status and control API listen: the bridge from what
// Kubernetes says of the StatefulSet's pods to the endpoints the pool service talks to.
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
  // The authority the workers' control certificates chain to, and the pool's control key,
  // from which each pod's own token is derived: files of the Secrets mounted into the
  // manager's pod.
  std::string control_ca_file;
  std::string control_key_file;
  // What follows the pod's name in the name its certificate holds: ".STATEFULSET.NAMESPACE.svc",
  // the pod's stable DNS name under the StatefulSet's headless service.
  std::string tls_name_suffix;
};

// RunnerNameOf is the worker's name in PeerTube and in the policy: the pod's annotation
// media.liken.sh/runner-name when it has one, else the pod's own name, which is what
// deploy/worker's pods give their runner (PT_WORKER_RUNNER_NAME from metadata.name).
std::string RunnerNameOf(const WorkerPod& pod);

// EndpointOf is the pod as a worker endpoint: http://POD-IP:PORT for its status and
// https://POD-IP:CONTROL-PORT for its control API (an IPv6 address in brackets), checked
// against the pod's stable name; empty urls while the pod has no IP. Alone, a pod is not wakeable:
// the StatefulSet's scale, not the pod, brings a worker up.
pool::WorkerEndpoint EndpointOf(const WorkerPod& pod, const EndpointSettings& settings);

// ReachableEndpoints are the endpoints of the pods that can answer now, by ordinal: those
// with an IP and no deletion under way. The pod of the highest ordinal still in the
// StatefulSet is wakeable: it is the one a scale-down gives back (and a later scale-up brings
// back), so the policy may put it to sleep once it has rested SPARE for `wake.sleep_after`;
// a lower ordinal cannot be given back before it and is not.
std::vector<pool::WorkerEndpoint> ReachableEndpoints(const std::vector<WorkerPod>& pods,
                                                     const EndpointSettings& settings);

// UnservableLines is one line for each pod the scheduler has not placed, naming the
// StatefulSet (the workers' class: one GPU claim for all its pods), the pod, and the
// scheduler's own words. A cluster owner reads it in `pool status` and the manager's log: no
// worker of that class will run until a GPU that states what its claim asks for joins the
// cluster, or the claim asks for less.
std::vector<std::string> UnservableLines(const std::vector<WorkerPod>& pods,
                                         const std::string& statefulset);

}  // namespace mc::pool
