#include "http/tls_library.h"

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
  Find(handle, "TLS_client_method", library->TLS_client_method, missing);
  Find(handle, "SSL_CTX_new", library->SSL_CTX_new, missing);
  Find(handle, "SSL_CTX_free", library->SSL_CTX_free, missing);
  Find(handle, "SSL_CTX_set_default_verify_paths", library->SSL_CTX_set_default_verify_paths,
       missing);
  Find(handle, "SSL_CTX_load_verify_locations", library->SSL_CTX_load_verify_locations, missing);
  Find(handle, "SSL_CTX_set_verify", library->SSL_CTX_set_verify, missing);
  Find(handle, "SSL_CTX_set_options", library->SSL_CTX_set_options, missing);
  Find(handle, "SSL_new", library->SSL_new, missing);
  Find(handle, "SSL_free", library->SSL_free, missing);
  Find(handle, "SSL_set_fd", library->SSL_set_fd, missing);
  Find(handle, "SSL_ctrl", library->SSL_ctrl, missing);
  Find(handle, "SSL_set1_host", library->SSL_set1_host, missing);
  Find(handle, "SSL_connect", library->SSL_connect, missing);
  Find(handle, "SSL_read", library->SSL_read, missing);
  Find(handle, "SSL_write", library->SSL_write, missing);
  Find(handle, "SSL_pending", library->SSL_pending, missing);
  Find(handle, "SSL_get_error", library->SSL_get_error, missing);
  Find(handle, "SSL_shutdown", library->SSL_shutdown, missing);
  Find(handle, "SSL_get_verify_result", library->SSL_get_verify_result, missing);
  Find(handle, "X509_verify_cert_error_string", library->X509_verify_cert_error_string, missing);
  Find(handle, "ERR_get_error", library->ERR_get_error, missing);
  Find(handle, "ERR_error_string_n", library->ERR_error_string_n, missing);
  Find(handle, "ERR_clear_error", library->ERR_clear_error, missing);
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

std::string TlsErrorText(const TlsLibrary& tls) {
  std::string text;
  while (const unsigned long code = tls.ERR_get_error()) {
    char buffer[256] = {};
    tls.ERR_error_string_n(code, buffer, sizeof buffer);
    if (!text.empty()) text += "; ";
    text += buffer;
  }
  return text.empty() ? "no further detail from OpenSSL" : text;
}

}  // namespace mc::http
