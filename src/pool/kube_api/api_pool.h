// ApiKubernetesPool is the KubernetesPool over the API client.
// The scale subresource, the pod list and an Event are one request each.
// A failure names the object, the step and what the server answered.
// An example: "statefulset peertube-workers/peertube-worker: scale: HTTP 403: ...".
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/kube/kube_client.h"
#include "pool/kube/kubernetes_pool.h"

namespace mc::pool {

class ApiKubernetesPool : public KubernetesPool {
 public:
  // Open reads the kubeconfig named in `options` (or the in-cluster service account) and
  // makes the client; it sends nothing. The options are checked here: an empty namespace,
  // StatefulSet or selector is an error naming the option.
  static Result<std::unique_ptr<ApiKubernetesPool>> Open(const KubernetesPoolOptions& options);
  // The pool over a client the caller made (tests give one aimed at a canned server).
  ApiKubernetesPool(std::unique_ptr<kube::KubeClient> client, KubernetesPoolOptions options);

  Result<Scale> ReadScale() override;
  Result<void> WriteScale(int replicas, const std::string& resource_version) override;
  Result<std::vector<WorkerPod>> WorkerPods() override;
  Result<void> RecordEvent(EventType type, const std::string& reason,
                           const std::string& message) override;

 private:
  std::string StatefulSetPath() const;
  std::string What() const;
  // The StatefulSet's UID, read once: an Event names it so that describe finds it.
  Result<std::string> StatefulSetUid();

  std::unique_ptr<kube::KubeClient> client_;
  KubernetesPoolOptions options_;
  std::mutex uid_mutex_;
  std::string uid_;
};

// ValidatePoolOptions is Open's check of the options, on its own for the configuration.
Result<void> ValidatePoolOptions(const KubernetesPoolOptions& options);

}  // namespace mc::pool
