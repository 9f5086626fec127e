// The one place that includes nv-codec-headers' loader (Debian's libffmpeg-nvenc-dev). It dlopens
// these at run time: libcuda.so.1, libnvcuvid.so.1, libnvidia-encode.so.1. So building or running
// this program needs nothing NVIDIA.
//
// The loader reports a library or symbol it cannot load through FFNV_LOG_FUNC. That goes to stderr
// unless told otherwise. Here it goes into the std::string the caller passes as the loader's
// `logctx`. So the query's one error message says it, once.
#pragma once

#include <string>

namespace mc::probe::nvidia_loader {

// Log appends one loader message to *static_cast<std::string*>(log). A null log drops it.
void Log(void* log, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace mc::probe::nvidia_loader

#ifndef FFNV_LOG_FUNC
#define FFNV_LOG_FUNC(logctx, msg, ...) \
  ::mc::probe::nvidia_loader::Log((logctx), (msg), __VA_ARGS__)
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...)
#endif
#include <ffnvcodec/dynlink_loader.h>
