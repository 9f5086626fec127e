// Where sysfs and /dev are when the command line does not say: MEDIA_CAP_SYSFS_ROOT and
// MEDIA_CAP_DEV_ROOT, else /sys and /dev. The fake machines of the tests (tests/fakenv/run-on,
// tests/fakeva/run-on) export them, so that any command run there finds the fake GPUs
// without being told twice.
#pragma once

#include "probe/gpu/render_node_discovery.h"

namespace mc {

probe::DiscoveryRoots RootsFromEnvironment();

}  // namespace mc
