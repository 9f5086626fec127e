// huc-firmware: Intel's low-power encoders (VAEntrypointEncSliceLP) need the HuC firmware for
// their bit-rate control. A driver may list them on a GPU whose HuC is not running. It then
// encodes badly or refuses. The check asks two sources in turn:
//  - the i915 kernel driver on the render node (I915_PARAM_HUC_STATUS), which any user who
//    may open the node may ask;
//  - debugfs, which is root only, and mounted only where someone mounted it.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

CheckResults CheckHucFirmware(const NodeInput& input);

}  // namespace mc::dra
