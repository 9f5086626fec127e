// The HuC's state as the Intel kernel drivers print it in debugfs. Two files begin with the
// same two lines: i915's gt/uc/huc_info (gt0, gt1 on several GTs) and xe's gtN/uc/huc_info.
//
//   HuC firmware: i915/tgl_huc.bin
//           status: RUNNING
//
// The status is one of the firmware states:
//  - RUNNING: loaded and authenticated;
//  - MISSING: the file is not there;
//  - DISABLED: the driver was told not to load it;
//  - and others.
// A debugfs file is outside input. The parser names what it could not find.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::dra {

struct HucInfo {
  std::string firmware;  // the firmware file, such as i915/tgl_huc.bin; may be empty
  std::string status;    // RUNNING, MISSING, DISABLED, N/A, ...
};

Result<HucInfo> ParseHucInfo(std::string_view text);

// HucRunning says whether the state is one in which low-power encode can use the HuC.
inline bool HucRunning(const HucInfo& info) { return info.status == "RUNNING"; }

}  // namespace mc::dra
