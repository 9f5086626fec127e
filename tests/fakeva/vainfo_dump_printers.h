// How GoogleTest prints the parser's values in failure messages: by name, as vainfo
// would, rather than as bytes.
#pragma once

#include <cstdio>
#include <ostream>

#include "va_names.h"
#include "vainfo_dump.h"

namespace mc::fakeva {

inline void PrintTo(const VainfoConfig& config, std::ostream* out) {
  char formats[16];
  std::snprintf(formats, sizeof formats, "%#x", config.rt_formats);
  *out << "{" << ProfileName(config.profile) << "(" << config.profile << ")/"
       << EntrypointName(config.entrypoint) << "(" << config.entrypoint << ") rt=" << formats
       << "}";
}

inline void PrintTo(const VainfoDump& dump, std::ostream* out) {
  *out << "{initialised=" << dump.initialised << " has_formats=" << dump.has_formats << " vendor=\""
       << dump.vendor << "\" configs=[";
  for (const VainfoConfig& config : dump.configs) {
    PrintTo(config, out);
    *out << " ";
  }
  *out << "]}";
}

}  // namespace mc::fakeva
