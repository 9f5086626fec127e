// The checks of each GPU's VA driver:
//  - va-driver: which driver file libva would load for it, and from where;
//  - va-driver-version: whether the driver answered the project's query;
//    and at a version that supports the GPU's kernel driver.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckVaDrivers(const NodeInput& input);
CheckResults CheckVaDriverVersions(const NodeInput& input);

}  // namespace mc::dra
