// The checks of the render nodes themselves:
//  - render-nodes: /dev holds each node that sysfs lists;
//  - render-node-access: this user may open it, else the group that would let it.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckRenderNodes(const NodeInput& input);
CheckResults CheckRenderNodeAccess(const NodeInput& input);

}  // namespace mc::dra
