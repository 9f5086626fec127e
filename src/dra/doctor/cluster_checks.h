// The checks that ask the cluster:
//  - resource-api: resource.k8s.io/v1 is served;
//  - consumable-capacity: allowMultipleAllocations and capacity survive a dry-run write;
//  - media-slices: this node's media slice;
//  - liken-pci-bus-id: liken's pciBusID on this node's render nodes;
//  - pending-claims: waiting ResourceClaims for media devices, with the scheduler's reason.
// Nothing is written: the capacity check's create is a dry run.
#pragma once

#include <string>

#include "dra/doctor/check_result.h"
#include "dra/doctor/cluster_api.h"

namespace mc::dra {

struct ClusterTarget {
  std::string node;
  std::string driver = "media.liken.sh";
  std::string liken_driver = "liken.sh";
};

CheckResults RunClusterChecks(ClusterApi& api, const ClusterTarget& target);

// ClusterUnreachable is the cluster checks' report when no API could be opened.
// For example, the kubeconfig is unreadable or the module missing.
// Then the check resource-api fails with `why`.
// The others say they were not checked.
CheckResults ClusterUnreachable(const std::string& why);

}  // namespace mc::dra
