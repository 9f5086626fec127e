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
 *
 * On a fake machine (FAKEVA_MACHINE, which run-on sets) the shim is also the kernel's
 * /dev/dri: opening, stat'ing or testing access to /dev/dri/NODE does so to
 * MACHINE/dev/dri/NODE, so that a client told to use /dev/dri/renderD128 (ffmpeg's
 * -vaapi_device, the worker's commands and checks) reaches the machine's node, as it would on
 * the real machine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

int drmGetNodeTypeFromFd(int fd) {
  (void)fd;
  return DRM_NODE_RENDER;
}

/* Where a path under /dev/dri/ is on the fake machine; other paths are left alone, as is
 * one that would not fit. */
static const char* OnMachine(const char* path, char* buffer, size_t size) {
  const char* machine = getenv("FAKEVA_MACHINE");
  if (!path || !machine || !*machine || strncmp(path, "/dev/dri/", 9) != 0) return path;
  const int written = snprintf(buffer, size, "%s%s", machine, path);
  if (written < 0 || (size_t)written >= size) return path;
  return buffer;
}

/* The mode argument exists only when the flags create a file. */
#define MODE_OF(flags, mode)                     \
  do {                                           \
    if ((flags) & (O_CREAT | __O_TMPFILE)) {     \
      va_list more;                              \
      va_start(more, flags);                     \
      mode = va_arg(more, mode_t);               \
      va_end(more);                              \
    }                                            \
  } while (0)

#define REDIRECT_OPEN(name)                                                 \
  int name(const char* path, int flags, ...) {                              \
    static int (*real)(const char*, int, ...);                              \
    mode_t mode = 0;                                                        \
    char buffer[4096];                                                      \
    MODE_OF(flags, mode);                                                   \
    if (!real) real = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, #name); \
    return real(OnMachine(path, buffer, sizeof buffer), flags, mode);       \
  }

#define REDIRECT_OPENAT(name)                                                    \
  int name(int dir, const char* path, int flags, ...) {                          \
    static int (*real)(int, const char*, int, ...);                              \
    mode_t mode = 0;                                                             \
    char buffer[4096];                                                           \
    MODE_OF(flags, mode);                                                        \
    if (!real) real = (int (*)(int, const char*, int, ...))dlsym(RTLD_NEXT, #name); \
    return real(dir, OnMachine(path, buffer, sizeof buffer), flags, mode);       \
  }

REDIRECT_OPEN(open)
REDIRECT_OPEN(open64)
REDIRECT_OPENAT(openat)
REDIRECT_OPENAT(openat64)

/* The fortified forms, which a program built with _FORTIFY_SOURCE calls for flags it cannot
 * check at compile time. */
#define REDIRECT_OPEN_2(name)                                                 \
  int name(const char* path, int flags) {                                     \
    static int (*real)(const char*, int);                                     \
    char buffer[4096];                                                        \
    if (!real) real = (int (*)(const char*, int))dlsym(RTLD_NEXT, #name);     \
    return real(OnMachine(path, buffer, sizeof buffer), flags);               \
  }

REDIRECT_OPEN_2(__open_2)
REDIRECT_OPEN_2(__open64_2)

/* The stat family and access, which say whether the node exists. */
#define REDIRECT_PATH_CALL(name, type)                                         \
  int name(const char* path, type out) {                                       \
    static int (*real)(const char*, type);                                     \
    char buffer[4096];                                                         \
    if (!real) real = (int (*)(const char*, type))dlsym(RTLD_NEXT, #name);     \
    return real(OnMachine(path, buffer, sizeof buffer), out);                  \
  }

#define REDIRECT_AT_CALL(name, type)                                                 \
  int name(int dir, const char* path, type out, int flags) {                         \
    static int (*real)(int, const char*, type, int);                                 \
    char buffer[4096];                                                               \
    if (!real) real = (int (*)(int, const char*, type, int))dlsym(RTLD_NEXT, #name); \
    return real(dir, OnMachine(path, buffer, sizeof buffer), out, flags);            \
  }

REDIRECT_PATH_CALL(stat, struct stat*)
REDIRECT_PATH_CALL(stat64, struct stat64*)
REDIRECT_PATH_CALL(lstat, struct stat*)
REDIRECT_PATH_CALL(lstat64, struct stat64*)
REDIRECT_PATH_CALL(access, int)
REDIRECT_AT_CALL(fstatat, struct stat*)
REDIRECT_AT_CALL(fstatat64, struct stat64*)
REDIRECT_AT_CALL(faccessat, int)
