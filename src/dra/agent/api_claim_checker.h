// The kubelet plugin's ClaimChecker, backed by the API.
// It reads the ResourceClaim the kubelet names.
// It checks that it is still the claim of that UID.
// A media device delivers no device node, so there is nothing else to prepare.
#pragma once

#include <string>

#include "common/kube/kube_client.h"
#include "dra/plugin/claim_checker.h"

namespace mc::dra {

// The client must outlive the checker.
ClaimChecker ApiClaimChecker(kube::KubeClient& client, std::string driver_name);

}  // namespace mc::dra
