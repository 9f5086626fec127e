// KubernetesPool is the pool manager's view of its workers in Kubernetes: one StatefulSet in one
// namespace, its scale subresource, the pods it owns, and the Events recorded on it. It is an
// interface of plain values so that the binary can hold one without linking the API client: the
// implementation over the API client (src/common/kube) lives in the module
// media-capabilities-pool-kube.so (pool_module.h opens it), and tests stand in for it with a fake.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::pool {

// Where the workers are and who the manager is, as the pool's configuration names them.
struct KubernetesPoolOptions {
  // A kubeconfig file; empty means the pod's own service account (in-cluster).
  std::string kubeconfig;
  std::string ns;           // the workers' namespace, such as peertube-workers
  std::string statefulset;  // the workers' StatefulSet, such as peertube-worker
  // The label selector of the workers' pods, such as app.kubernetes.io/name=peertube-worker.
  std::string selector;
  // Who records the Events: their source.component and reportingController.
  std::string component = "media-capabilities-pool";
  // Which instance records them (reportingInstance): the manager's pod name, or empty.
  std::string instance;
  std::chrono::milliseconds request_timeout{15000};
};

// The scale subresource as it was read: the replicas asked for, and the version a
// conditional write must name so that it fails instead of overwriting a newer change.
struct Scale {
  int replicas = 0;
  std::string resource_version;
};

// One pod of the StatefulSet, as the manager needs it.
struct WorkerPod {
  std::string name;          // peertube-worker-2
  int ordinal = -1;          // 2: the pod-index label, else the number after the name's last '-'
  std::string phase;         // Pending, Running, Succeeded, Failed or Unknown
  std::string pod_ip;        // empty until the pod has one
  std::string node_name;     // empty until the scheduler placed it
  bool ready = false;        // the Ready condition is True
  bool terminating = false;  // a deletion has begun
  // The runner's name in PeerTube when the pod states it (kRunnerNameAnnotation); empty
  // when it does not, and then the pod's own name is the runner's (pod_endpoints.h).
  std::string runner_name;
  // Why the scheduler has not placed it: the message of a PodScheduled condition that is
  // False, such as "0/2 nodes are available: 2 cannot allocate all claims."; empty once it
  // is placed or before the scheduler has tried.
  std::string unschedulable;
};

enum class EventType { kNormal, kWarning };

constexpr const char* EventTypeName(EventType type) {
  return type == EventType::kWarning ? "Warning" : "Normal";
}

class KubernetesPool {
 public:
  virtual ~KubernetesPool() = default;

  // ReadScale GETs the StatefulSet's scale subresource.
  virtual Result<Scale> ReadScale() = 0;
  // WriteScale sets the replicas. With a resource_version it is a conditional PUT, which
  // fails as a Conflict when the scale changed since it was read; without one it is a
  // merge PATCH that always applies.
  virtual Result<void> WriteScale(int replicas, const std::string& resource_version) = 0;
  // WorkerPods lists the pods of the selector that the StatefulSet owns, by ordinal.
  virtual Result<std::vector<WorkerPod>> WorkerPods() = 0;
  // RecordEvent creates an Event whose involved object is the StatefulSet, so that
  // `kubectl describe statefulset` shows every promotion, demotion, drain and failure.
  virtual Result<void> RecordEvent(EventType type, const std::string& reason,
                                   const std::string& message) = 0;

  Result<int> Replicas() {
    Result<Scale> scale = ReadScale();
    if (!scale) return scale.failure();
    return scale->replicas;
  }
  Result<void> ScaleTo(int replicas) { return WriteScale(replicas, ""); }
};

// The annotation a pod may carry to name its runner in PeerTube, when that is not the pod's
// own name (deploy/worker's pods need none: their runner takes the pod's name).
inline constexpr char kRunnerNameAnnotation[] = "media.liken.sh/runner-name";

}  // namespace mc::pool
