// The agent's request for a new pod of itself.
// It uses the Eviction API on its own pod:
// POST /api/v1/namespaces/NS/pods/NAME/eviction.
// That deletes the pod gracefully; the DaemonSet makes a new one with a new claim.
// An eviction, unlike a delete, honours disruption budgets.
// It is the narrowest grant that lets a pod be replaced (deploy/rbac.yaml).
// The admission policy admits it only for the pod the agent's token names.
// See deploy/admission-policy.yaml.
#pragma once

#include "common/base/result.h"
#include "common/kube/kube_client.h"
#include "dra/agent/agent_options.h"

namespace mc::dra {

// EvictPod asks for `pod`'s eviction.
// A 429 means a disruption budget refuses it now.
// It is an unavailable failure carrying the server's Retry-After.
// A pod already gone succeeds.
Result<void> EvictPod(kube::KubeClient& client, const PodRef& pod);

}  // namespace mc::dra
