// The checks of each GPU's VA driver: which driver file libva would load for it, from where
// (va-driver), and whether that driver answered the project's query at a version that
// supports the GPU's kernel driver (va-driver-version).
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckVaDrivers(const NodeInput& input);
CheckResults CheckVaDriverVersions(const NodeInput& input);

}  // namespace mc::dra
