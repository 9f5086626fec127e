// huc-firmware: Intel's low-power encoders (VAEntrypointEncSliceLP) need the HuC firmware for
// their bit-rate control, so a driver that lists them on a GPU whose HuC is not running
// encodes badly or refuses. Asked first of the i915 kernel driver itself on the render node
// (I915_PARAM_HUC_STATUS, which any user who may open the node may ask), then of debugfs
// (root only, and mounted only where someone mounted it).
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckHucFirmware(const NodeInput& input);

}  // namespace mc::dra
