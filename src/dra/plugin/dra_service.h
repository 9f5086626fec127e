// The kubelet's DRAPlugin service, in both versions a kubelet may call: v1 (kubelets 1.34
// and later) and v1beta1 (1.32 and 1.33). A media device hands the container no device
// node, so preparing a claim is only checking it: the answer lists no devices and no CDI
// devices, and an error only for a claim the checker refuses.
#pragma once

#include <vector>

#include "dra/grpc_server/server.h"
#include "dra/plugin/claim_checker.h"

namespace mc::dra {

std::vector<Method> DraMethodsV1(ClaimChecker checker);
std::vector<Method> DraMethodsV1beta1(ClaimChecker checker);

}  // namespace mc::dra
