// KubernetesChannel carries the policy's actions to the pods of one StatefulSet.
// COLD <-> SPARE is the StatefulSet's scale:
//  - a wake asks for one more replica;
//  - a suspend gives one back, and Kubernetes takes the highest ordinal.
// So only the worker of that ordinal can be suspended.
// Inside a running worker (enable, drain, classes, probe), the worker's control API acts.
// It is reached through the channel given.
//
// Every action, carried or failed, is recorded as an Event on the StatefulSet.
// An Event that cannot be recorded is logged and does not fail the action.
// The action took effect; retrying it for its Event would scale twice.
#pragma once

#include <functional>
#include <string>

#include "pool/kube/kubernetes_pool.h"
#include "pool/kube/pod_endpoints.h"
#include "pool/policy/decision.h"
#include "pool/service/control_channel.h"

namespace mc::pool {

struct KubernetesChannelSettings {
  // How pods map to worker names, so that a suspend finds the worker's pod.
  EndpointSettings endpoints;
  // Where an Event that could not be recorded is reported; stderr when empty.
  std::function<void(const std::string& line)> log;
};

class KubernetesChannel : public pool::ControlChannel {
 public:
  // `pool` and `workers` must outlive the channel; `workers` carries every action that is
  // not the StatefulSet's scale.
  KubernetesChannel(KubernetesPool& pool, pool::ControlChannel& workers,
                    KubernetesChannelSettings settings = {});

  Result<void> Apply(const pool::Action& action, const pool::WorkerEndpoint& worker) override;
  std::string Describe(const pool::Action& action,
                       const pool::WorkerEndpoint& worker) const override;

 private:
  Result<void> ScaleUp(std::string& done);
  Result<void> ScaleDown(const pool::WorkerEndpoint& worker, std::string& done);
  void Record(EventType type, const std::string& reason, const std::string& message);

  KubernetesPool& pool_;
  pool::ControlChannel& workers_;
  KubernetesChannelSettings settings_;
};

// The Event reasons: one per action kind, and a Warning that names its failure.
// Examples are "ScaledUp" and "ScaleUpFailed".
// `kubectl get events --field-selector reason=...` finds them.
std::string EventReason(pool::ActionKind kind);
std::string FailedEventReason(pool::ActionKind kind);

}  // namespace mc::pool
