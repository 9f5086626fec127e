// Writing a VainfoDump back as the text Debian's vainfo prints for it: the plain listing,
// or the `vainfo -a` blocks when the dump has formats. Tests and the fuzz target use it to
// check that what the parser reads survives a second reading unchanged.
#pragma once

#include <string>

#include "vainfo_dump.h"

namespace mc::fakeva {

std::string FormatVainfoDump(const VainfoDump& dump);

}  // namespace mc::fakeva
