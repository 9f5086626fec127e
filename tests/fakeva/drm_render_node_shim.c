/*
 * libfakeva_drm_shim.so, preloaded by tests only: it fakes the kernel layer, not libva.
 *
 * libva 2.17's DRM display (libva-drm.so.2) asks libdrm's drmGetNodeTypeFromFd whether the
 * descriptor it was given is a render node, and vaGetDisplayDRM returns no display when
 * libdrm cannot tell. libdrm decides by fstat() on a character device under /dev/dri,
 * which a test machine (or container) need not have. Answering "render node" for every
 * descriptor lets the real libva run on a plain file or /dev/null; everything above the
 * kernel (libva's driver lookup, dlopen of the driver, the vtable checks) stays real.
 *
 * On a render node libva skips DRM authentication (drmGetMagic/drmAuthMagic), so the
 * only other libdrm call that reaches the descriptor is drmGetVersion, whose ioctl fails
 * on a plain file; libva then takes the driver name from LIBVA_DRIVER_NAME.
 */
#include <xf86drm.h>

int drmGetNodeTypeFromFd(int fd) {
  (void)fd;
  return DRM_NODE_RENDER;
}
