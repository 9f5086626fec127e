#include "common/http/tls_library.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>

namespace mc::http {
namespace {

struct Loaded {
  std::unique_ptr<TlsLibrary> library;
  std::string error;
};

template <typename Function>
bool Find(void* handle, const char* name, Function& function, std::string& missing) {
  function = reinterpret_cast<Function>(dlsym(handle, name));
  if (!function && missing.empty()) missing = name;
  return function != nullptr;
}

Loaded Load(const std::string& name) {
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return {nullptr, "https needs Mbed TLS 2.28 (" + name +
                         "), which could not be loaded: " + (why ? why : "unknown reason")};
  }
  auto library = std::make_unique<TlsLibrary>();
  std::string missing;
#define MC_HTTP_MBEDTLS_FIND(name) Find(handle, #name, library->name, missing);
  MC_HTTP_MBEDTLS_CALLS(MC_HTTP_MBEDTLS_FIND)
#undef MC_HTTP_MBEDTLS_FIND
  if (!missing.empty()) {
    dlclose(handle);
    return {nullptr, "https needs Mbed TLS 2.28, but " + name + " has no " + missing};
  }
  // The library stays loaded for the rest of the process: connections may use it at any time.
  return {std::move(library), ""};
}

}  // namespace

Result<const TlsLibrary*> LoadTlsLibrary(const std::string& name) {
  // Loaded once per name and kept: the table is filled under the lock and never changed
  // afterwards, so every connection reads it without one.
  static std::mutex mutex;
  static std::map<std::string, Loaded> loaded;
  std::lock_guard lock(mutex);
  auto found = loaded.find(name);
  if (found == loaded.end()) found = loaded.emplace(name, Load(name)).first;
  if (!found->second.library) return Unsupported(found->second.error);
  return found->second.library.get();
}

std::string TlsErrorText(const TlsLibrary& tls, int code) {
  char text[256] = {};
  tls.mbedtls_strerror(code, text, sizeof text);
  return text[0] ? std::string(text) : "Mbed TLS error " + std::to_string(code);
}

}  // namespace mc::http
