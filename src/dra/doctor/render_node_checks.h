// The checks of the render nodes themselves: that /dev holds each node sysfs lists
// (render-nodes), and that this user may open it (render-node-access), naming the group that
// would let it.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckRenderNodes(const NodeInput& input);
CheckResults CheckRenderNodeAccess(const NodeInput& input);

}  // namespace mc::dra
