// The kubelet's DRAPlugin service, in both versions a kubelet may call:
//  - v1, for kubelets 1.34 and later;
//  - v1beta1, for 1.32 and 1.33.
// A media device hands the container no device node.
// So preparing a claim is only checking it.
// The answer lists no devices and no CDI devices.
// It holds an error only for a claim the checker refuses.
#pragma once

#include <vector>

#include "dra/grpc_server/server.h"
#include "dra/plugin/claim_checker.h"

namespace mc::dra {

std::vector<Method> DraMethodsV1(ClaimChecker checker);
std::vector<Method> DraMethodsV1beta1(ClaimChecker checker);

}  // namespace mc::dra
