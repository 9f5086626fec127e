// The server's side of TLS for the small HTTP server (http_server.h). It is OpenSSL 3, opened as
// the client opens it (tls_library.h). The floor is the same:
// - TLS 1.2 at least, 1.3 offered;
// - TLS 1.2's AEAD suites only.
//
// The certificate chain and its key are read from PEM files once, at server start. A connection's
// TLS runs on the server's non-blocking socket. Each call does what it can now and says what it
// waits for.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/result.h"

// OpenSSL's SSL and SSL_CTX. Only the source needs their header.
struct ssl_st;
struct ssl_ctx_st;

namespace mc::http {

struct TlsLibrary;

struct ServerTlsFiles {
  // The server's certificate, then any intermediate ones, as PEM.
  std::string certificate_file;
  std::string key_file;
  std::string tls_library = "libssl.so.3";
};

// What one call on a connection did, one of:
// - bytes moved;
// - what the socket must become ready for first (POLLIN or POLLOUT), before the call is made again;
// - the end: the peer closed, or TLS failed, and nobody is left to answer.
struct IoStep {
  std::size_t bytes = 0;
  short wait = 0;
  bool end = false;
};

// One accepted connection's TLS. The socket stays its server's, which closes it.
class TlsAccepted {
 public:
  TlsAccepted(const TlsLibrary& tls, int fd) : tls_(tls), fd_(fd) {}
  ~TlsAccepted();
  TlsAccepted(const TlsAccepted&) = delete;
  TlsAccepted& operator=(const TlsAccepted&) = delete;

  // Read and Write run the handshake first, as far as the socket allows. A Write that waited is
  // made again with the same bytes. OpenSSL requires that.
  IoStep Read(char* data, std::size_t size);
  IoStep Write(std::string_view data);
  // Shutdown sends TLS's close_notify, as far as the socket takes it now.
  void Shutdown();

 private:
  friend class ServerTls;
  IoStep Waiting(int result);

  const TlsLibrary& tls_;
  const int fd_;  // at a fixed address; the socket BIO reads it through a pointer
  ::ssl_st* ssl_ = nullptr;
};

class ServerTls {
 public:
  // Load reads the certificate and key and checks they belong together. An error names the file and
  // OpenSSL's words.
  static Result<std::shared_ptr<const ServerTls>> Load(const ServerTlsFiles& files);
  ~ServerTls();
  ServerTls(const ServerTls&) = delete;
  ServerTls& operator=(const ServerTls&) = delete;

  // Accept begins the server's side of TLS on an accepted non-blocking socket. Null when OpenSSL
  // could not make the connection's state.
  std::unique_ptr<TlsAccepted> Accept(int fd) const;

 private:
  ServerTls(const TlsLibrary& tls, ::ssl_ctx_st* context) : tls_(tls), context_(context) {}
  const TlsLibrary& tls_;
  ::ssl_ctx_st* context_;
};

}  // namespace mc::http
