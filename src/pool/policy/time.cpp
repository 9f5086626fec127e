#include "pool/policy/time.h"

#include <cmath>
#include <cstdio>

namespace mc::pool {

std::string FormatDuration(Duration duration) {
  const long total = std::lround(std::max(0.0, duration.count()));
  char text[32];
  if (total < 60) {
    std::snprintf(text, sizeof text, "%lds", total);
  } else if (total < 3600) {
    std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, (total % 3600) / 60);
  }
  return text;
}

}  // namespace mc::pool
