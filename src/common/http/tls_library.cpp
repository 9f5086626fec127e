#include "common/http/tls_library.h"

#include <dlfcn.h>
#include <sys/socket.h>

#include <cerrno>
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
  // The library stays loaded for the process's life. Connections may use it any time.
  return {std::move(library), ""};
}

// TLS 1.2's suites: ECDHE with AES-GCM or ChaCha20 only. TLS 1.3, also offered, has no other.
constexpr const char* kTls12Suites = "ECDHE+AESGCM:ECDHE+CHACHA20";

// OpenSSL's BIO calls bring no context of ours. So the socket BIO's functions find the library
// here. It is set once, before the first such BIO, and never changed.
const TlsLibrary* bio_library = nullptr;

int SocketOf(BIO* bio) { return *static_cast<const int*>(bio_library->BIO_get_data(bio)); }

void AskToRetry(BIO* bio, int direction) {
  bio_library->BIO_set_flags(bio, direction | BIO_FLAGS_SHOULD_RETRY);
}

int BioWrite(BIO* bio, const char* data, int size) {
  bio_library->BIO_clear_flags(bio, BIO_FLAGS_RWS | BIO_FLAGS_SHOULD_RETRY);
  while (true) {
    const ssize_t sent = send(SocketOf(bio), data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
    if (sent >= 0) return static_cast<int>(sent);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) AskToRetry(bio, BIO_FLAGS_WRITE);
    return -1;
  }
}

int BioRead(BIO* bio, char* data, int size) {
  bio_library->BIO_clear_flags(bio, BIO_FLAGS_RWS | BIO_FLAGS_SHOULD_RETRY);
  while (true) {
    const ssize_t got = recv(SocketOf(bio), data, static_cast<std::size_t>(size), 0);
    if (got >= 0) return static_cast<int>(got);
    if (errno == EINTR) continue;
    if (errno == ECONNRESET) return 0;
    if (errno == EAGAIN || errno == EWOULDBLOCK) AskToRetry(bio, BIO_FLAGS_READ);
    return -1;
  }
}

long BioControl(BIO*, int command, long, void*) { return command == BIO_CTRL_FLUSH ? 1 : 0; }

BIO_METHOD* SocketBioMethod(const TlsLibrary& tls) {
  static std::once_flag once;
  static BIO_METHOD* method = nullptr;
  std::call_once(once, [&] {
    bio_library = &tls;
    method = tls.BIO_meth_new(tls.BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "socket");
    if (method && tls.BIO_meth_set_write(method, BioWrite) == 1 &&
        tls.BIO_meth_set_read(method, BioRead) == 1 &&
        tls.BIO_meth_set_ctrl(method, BioControl) == 1) {
      return;
    }
    method = nullptr;
  });
  return method;
}

}  // namespace

Result<SSL_CTX*> NewContext(const TlsLibrary& tls, const SSL_METHOD* method) {
  SSL_CTX* context = tls.SSL_CTX_new(method);
  if (!context) return Internal("no TLS context: " + TlsErrorText(tls, "out of memory"));
  tls.SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, nullptr);
  tls.SSL_CTX_set_options(
      context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
  if (tls.SSL_CTX_set_cipher_list(context, kTls12Suites) != 1) {
    const std::string why = TlsErrorText(tls, "refused");
    tls.SSL_CTX_free(context);
    return Internal("no TLS 1.2 suites: " + why);
  }
  return context;
}

BIO* NewSocketBio(const TlsLibrary& tls, const int* fd) {
  BIO_METHOD* method = SocketBioMethod(tls);
  BIO* bio = method ? tls.BIO_new(method) : nullptr;
  if (!bio) return nullptr;
  tls.BIO_set_data(bio, const_cast<int*>(fd));
  tls.BIO_set_init(bio, 1);
  return bio;
}

Result<const TlsLibrary*> LoadTlsLibrary(const std::string& name) {
  // Loaded once per name and kept. The table is filled under the lock and never changed afterwards.
  // So every connection reads it without the lock.
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
