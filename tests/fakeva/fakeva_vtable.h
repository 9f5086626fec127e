// The fake driver's VADriverVTable: the C entry points libva calls, each forwarding to the
// FakeDriverState that the driver context's pDriverData holds.
#pragma once

#include <va/va_backend.h>

namespace mc::fakeva {

// InstallVtable fills every entry libva 2.17 insists on (the CHECK_VTABLE list in va.c,
// which makes vaInitialize fail with "No valid vtable entry for va..." when one is null)
// and vaQuerySurfaceAttributes. What a dump cannot state (surfaces, contexts, buffers,
// images, subpictures) answers VA_STATUS_ERROR_UNIMPLEMENTED. vaTerminate deletes the
// context's FakeDriverState.
void InstallVtable(VADriverVTable& vtable);

}  // namespace mc::fakeva
