// The StatefulSet's scale subresource (autoscaling/v1 Scale) as the API server answers it,
// and the bodies that change it. Pure functions: the answers are outside input.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "pool/kube/kubernetes_pool.h"

namespace mc::pool {

// ParseScale reads a Scale: spec.replicas (0 when absent, as the API omits a zero) and
// metadata.resourceVersion. Errors name the member at fault, such as
// "scale: spec.replicas: expected an integer between 0 and 2147483647".
Result<Scale> ParseScale(std::string_view body);

// ScaleUpdate is the body of a conditional PUT: a Scale of `replicas`.
// It names the version it was read at.
// So the server refuses it (409) if the scale moved since.
std::string ScaleUpdate(const std::string& ns, const std::string& name, int replicas,
                        const std::string& resource_version);

// ScalePatch is the merge patch that sets the replicas whatever they are now.
std::string ScalePatch(int replicas);

}  // namespace mc::pool
