// Everything one initialised display of the fake driver holds.
// It sits behind the driver context's pDriverData:
//  - what the dump states (FakeDriverState);
//  - the memory and contexts the client made;
//  - the kernel's view of the render node it opened.
// libva does not serialise a client's calls.
// So every entry point holds `mutex` for its whole call.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "drm_client_view.h"
#include "fake_driver_state.h"
#include "va_contexts.h"
#include "va_memory.h"

namespace mc::fakeva {

struct DriverData {
  explicit DriverData(VainfoDump dump) : state(std::move(dump)) {}

  FakeDriverState state;
  VaMemory memory;
  VaContexts contexts;
  // The fdinfo of the render node in the fake machine's /proc; null outside a fake machine.
  std::unique_ptr<DrmClientView> view;
  // Where the engines keep their samples.
  std::string state_dir;
  std::mutex mutex;
};

}  // namespace mc::fakeva
