// A loopback port nothing listens on, for tests of what a refused connection gives.
#pragma once

namespace mc::testing {

// FreePort binds a loopback port, closes it and returns its number.
int FreePort();

}  // namespace mc::testing
