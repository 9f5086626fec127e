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
    return {nullptr, "https needs OpenSSL 3 (" + name +
                         "), which could not be loaded: " + (why ? why : "unknown reason")};
  }
  auto library = std::make_unique<TlsLibrary>();
  std::string missing;
#define MC_HTTP_OPENSSL_FIND(name) Find(handle, #name, library->name, missing);
  MC_HTTP_OPENSSL_CALLS(MC_HTTP_OPENSSL_FIND)
#undef MC_HTTP_OPENSSL_FIND
  if (!missing.empty()) {
    dlclose(handle);
    return {nullptr, "https needs OpenSSL 3, but " + name + " has no " + missing};
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

std::string TlsErrorText(const TlsLibrary& tls, const std::string& fallback) {
  std::string line;
  while (const unsigned long code = tls.ERR_get_error()) {
    char text[256] = {};
    tls.ERR_error_string_n(code, text, sizeof text);
    line += (line.empty() ? "" : "; ") + std::string(text);
  }
  return line.empty() ? fallback : line;
}

}  // namespace mc::http
