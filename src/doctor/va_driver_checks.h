// The checks of each GPU's VA driver: which driver file libva would load for it, from where
// (va-driver), and whether that driver answered the project's query at a version that
// supports the GPU's kernel driver (va-driver-version).
#pragma once

#include "doctor/check_result.h"
#include "doctor/node_input.h"

namespace mc::doctor {

CheckResults CheckVaDrivers(const NodeInput& input);
CheckResults CheckVaDriverVersions(const NodeInput& input);

}  // namespace mc::doctor
