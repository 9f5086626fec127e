#include "cli/roots_from_environment.h"

#include <cstdlib>

namespace mc {

probe::DiscoveryRoots RootsFromEnvironment() {
  probe::DiscoveryRoots roots;
  if (const char* sysfs = std::getenv("MEDIA_CAP_SYSFS_ROOT"); sysfs && *sysfs) roots.sysfs = sysfs;
  if (const char* dev = std::getenv("MEDIA_CAP_DEV_ROOT"); dev && *dev) roots.dev = dev;
  return roots;
}

}  // namespace mc
