// The checks that ask the cluster: resource.k8s.io/v1 served (resource-api), a written
// allowMultipleAllocations and capacity surviving a dry-run write (consumable-capacity), this
// node's media slice (media-slices), liken's pciBusID on this node's render nodes
// (liken-pci-bus-id), and the ResourceClaims for media devices that wait, with the
// scheduler's reason (pending-claims). Nothing is written: the capacity check's create is a
// dry run.
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

// ClusterUnreachable is the cluster checks' report when no API could be opened at all (the
// kubeconfig unreadable, the module missing): resource-api fails with `why`, and the others
// say they were not checked.
CheckResults ClusterUnreachable(const std::string& why);

}  // namespace mc::dra
