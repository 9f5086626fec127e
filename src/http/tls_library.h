// OpenSSL 3's libssl, opened with dlopen: the few calls a TLS client makes, declared here
// with OpenSSL's opaque types, so that building needs no OpenSSL headers and running without
// https needs no OpenSSL at all.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace mc::http {

struct SslCtx;
struct Ssl;
struct SslMethod;

struct TlsLibrary {
  const SslMethod* (*TLS_client_method)();
  SslCtx* (*SSL_CTX_new)(const SslMethod*);
  void (*SSL_CTX_free)(SslCtx*);
  int (*SSL_CTX_set_default_verify_paths)(SslCtx*);
  int (*SSL_CTX_load_verify_locations)(SslCtx*, const char*, const char*);
  void (*SSL_CTX_set_verify)(SslCtx*, int, void*);
  std::uint64_t (*SSL_CTX_set_options)(SslCtx*, std::uint64_t);
  Ssl* (*SSL_new)(SslCtx*);
  void (*SSL_free)(Ssl*);
  int (*SSL_set_fd)(Ssl*, int);
  long (*SSL_ctrl)(Ssl*, int, long, void*);
  int (*SSL_set1_host)(Ssl*, const char*);
  int (*SSL_connect)(Ssl*);
  int (*SSL_read)(Ssl*, void*, int);
  int (*SSL_write)(Ssl*, const void*, int);
  int (*SSL_pending)(const Ssl*);
  int (*SSL_get_error)(const Ssl*, int);
  int (*SSL_shutdown)(Ssl*);
  long (*SSL_get_verify_result)(const Ssl*);
  const char* (*X509_verify_cert_error_string)(long);
  unsigned long (*ERR_get_error)();
  void (*ERR_error_string_n)(unsigned long, char*, std::size_t);
  void (*ERR_clear_error)();
};

// OpenSSL's constants that the calls above take or give (openssl/ssl.h, openssl/x509_vfy.h).
inline constexpr int kSslErrorWantRead = 2;
inline constexpr int kSslErrorWantWrite = 3;
inline constexpr int kSslErrorSyscall = 5;
inline constexpr int kSslErrorZeroReturn = 6;
inline constexpr int kSslVerifyPeer = 1;
inline constexpr int kSslCtrlSetTlsextHostname = 55;
inline constexpr long kTlsextNametypeHostName = 0;
inline constexpr long kX509VOk = 0;
inline constexpr std::uint64_t kSslOpIgnoreUnexpectedEof = std::uint64_t{1} << 7;

// LoadTlsLibrary opens `name` once per name and process and finds every call above in it
// (the libcrypto calls through libssl's own dependencies); a missing library or call is
// unsupported, in words that say https needs it.
Result<const TlsLibrary*> LoadTlsLibrary(const std::string& name);

// TlsErrorText is OpenSSL's queue of errors as one line, emptied.
std::string TlsErrorText(const TlsLibrary& tls);

}  // namespace mc::http
