// KubernetesPool is the pool manager's view of its workers in Kubernetes.
// It covers one StatefulSet in one namespace, its scale, its pods and its Events.
// It is an interface of plain values, so the binary need not link the API client.
// The implementation over the API client (src/common/kube) lives in a module.
// That module is media-capabilities-pool-kube.so; pool_module.h opens it.
// Tests stand in for it with a fake.
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

// The scale subresource as it was read: the replicas asked for, and its version.
// A conditional write names the version, so it fails instead of overwriting a newer change.
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
  // The runner's name in PeerTube when the pod states it (kRunnerNameAnnotation).
  // Empty when it does not; then the pod's own name is the runner's (pod_endpoints.h).
  std::string runner_name;
  // Why the scheduler has not placed it: the message of a False PodScheduled condition.
  // An example: "0/2 nodes are available: 2 cannot allocate all claims."
  // Empty once it is placed, or before the scheduler has tried.
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
  // WriteScale sets the replicas.
  // With a resource_version it is a conditional PUT.
  // That fails as a Conflict when the scale changed since it was read.
  // Without one it is a merge PATCH that always applies.
  virtual Result<void> WriteScale(int replicas, const std::string& resource_version) = 0;
  // WorkerPods lists the pods of the selector that the StatefulSet owns, by ordinal.
  virtual Result<std::vector<WorkerPod>> WorkerPods() = 0;
  // RecordEvent creates an Event whose involved object is the StatefulSet, so that
  // `kubectl describe statefulset` shows every promotion, demotion, drain and failure.
  virtual Result<void> RecordEvent(EventType type, const std::string& reason,
                                   const std::string& message) = 0;

  Result<int> Replicas() {
    Result<Scale> scale = ReadScale();
    if (!scale) return scale.error();
    return scale->replicas;
  }
  Result<void> ScaleTo(int replicas) { return WriteScale(replicas, ""); }
};

// The annotation a pod may carry to name its runner in PeerTube.
// It is needed only when the runner's name is not the pod's own.
// deploy/worker's pods need none: their runner takes the pod's name.
inline constexpr char kRunnerNameAnnotation[] = "media.liken.sh/runner-name";

}  // namespace mc::pool
