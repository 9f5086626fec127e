// The agent's request for a new pod of itself: the Eviction API on its own pod
// (POST /api/v1/namespaces/NS/pods/NAME/eviction), which deletes the pod gracefully, so that
// the DaemonSet makes a new one with a new claim. An eviction, unlike a delete, honours
// disruption budgets and is the narrowest grant that lets a pod be replaced (deploy/rbac.yaml;
// deploy/admission-policy.yaml admits it only for the pod the agent's own token names).
#pragma once

#include "common/base/result.h"
#include "common/kube/kube_client.h"
#include "dra/agent/agent_options.h"

namespace mc::dra {

// EvictPod asks for `pod`'s eviction. A 429 (a disruption budget refuses it now) is an
// unavailable failure carrying the server's Retry-After; a pod already gone succeeds.
Result<void> EvictPod(kube::KubeClient& client, const PodRef& pod);

}  // namespace mc::dra
