// The fake driver's VADriverVTable: the C entry points libva calls, each forwarding to the
// FakeDriverState that the driver context's pDriverData holds.
#pragma once

#include <va/va_backend.h>
#include <va/va_backend_vpp.h>

namespace mc::fakeva {

// The image formats vaQueryImageFormats lists: NV12 and P010, the surfaces' own.
inline constexpr int kImageFormats = 2;

// InstallVtable fills these entries:
//  - every one libva 2.17 insists on, the CHECK_VTABLE list in va.c;
//  - vaQuerySurfaceAttributes, vaCreateSurfaces2 and vaBufferInfo.
// A null entry of the list fails vaInitialize: "No valid vtable entry for va...".
// The queries answer from the dump.
// Surfaces, images, buffers and contexts are the fake GPU's (driver_data.h).
// Subpictures and display attributes answer VA_STATUS_ERROR_UNIMPLEMENTED.
// vaTerminate deletes the context's DriverData.
void InstallVtable(VADriverVTable& vtable);

// InstallVppVtable answers the video-processing queries: no filters, BT.601 and BT.709 in
// and out.
void InstallVppVtable(VADriverVTableVPP& vtable);

}  // namespace mc::fakeva
