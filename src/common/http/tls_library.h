// OpenSSL 3, opened with dlopen. It is Debian's libssl3, which its security team keeps current.
// These are the calls a TLS client makes, typed from OpenSSL's own headers. So running without
// https needs no TLS library at all. The binary's start-up loads none. The soname pins the ABI:
// libssl.so.3. Its dependency libcrypto.so.3 serves the X.509, PEM, BIO and error calls.
#pragma once

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <string>

#include "common/base/result.h"

namespace mc::http {

// Every call the transport makes, once. The table below declares a pointer for each. The loader
// finds each by its name.
#define MC_HTTP_OPENSSL_CALLS(CALL)        \
  CALL(TLS_client_method)                  \
  CALL(TLS_server_method)                  \
  CALL(SSL_CTX_use_certificate_chain_file) \
  CALL(SSL_CTX_use_PrivateKey_file)        \
  CALL(SSL_set_accept_state)               \
  CALL(SSL_CTX_new)                        \
  CALL(SSL_CTX_free)                       \
  CALL(SSL_CTX_ctrl)                       \
  CALL(SSL_CTX_set_options)                \
  CALL(SSL_CTX_set_cipher_list)            \
  CALL(SSL_CTX_set_verify)                 \
  CALL(SSL_CTX_load_verify_locations)      \
  CALL(SSL_CTX_get_cert_store)             \
  CALL(SSL_CTX_use_certificate)            \
  CALL(SSL_CTX_use_PrivateKey)             \
  CALL(SSL_CTX_check_private_key)          \
  CALL(SSL_new)                            \
  CALL(SSL_free)                           \
  CALL(SSL_set_bio)                        \
  CALL(SSL_ctrl)                           \
  CALL(SSL_set1_host)                      \
  CALL(SSL_get0_param)                     \
  CALL(SSL_connect)                        \
  CALL(SSL_read)                           \
  CALL(SSL_write)                          \
  CALL(SSL_has_pending)                    \
  CALL(SSL_get_error)                      \
  CALL(SSL_get_verify_result)              \
  CALL(SSL_shutdown)                       \
  CALL(X509_VERIFY_PARAM_set1_ip_asc)      \
  CALL(X509_verify_cert_error_string)      \
  CALL(X509_STORE_add_cert)                \
  CALL(X509_free)                          \
  CALL(EVP_PKEY_free)                      \
  CALL(PEM_read_bio_X509)                  \
  CALL(PEM_read_bio_PrivateKey)            \
  CALL(BIO_new_mem_buf)                    \
  CALL(BIO_new)                            \
  CALL(BIO_free)                           \
  CALL(BIO_get_new_index)                  \
  CALL(BIO_meth_new)                       \
  CALL(BIO_meth_set_write)                 \
  CALL(BIO_meth_set_read)                  \
  CALL(BIO_meth_set_ctrl)                  \
  CALL(BIO_set_data)                       \
  CALL(BIO_get_data)                       \
  CALL(BIO_set_init)                       \
  CALL(BIO_set_flags)                      \
  CALL(BIO_clear_flags)                    \
  CALL(ERR_get_error)                      \
  CALL(ERR_clear_error)                    \
  CALL(ERR_error_string_n)                 \
  CALL(EVP_sha256)                         \
  CALL(HMAC)

struct TlsLibrary {
#define MC_HTTP_OPENSSL_POINTER(name) decltype(&::name) name = nullptr;
  MC_HTTP_OPENSSL_CALLS(MC_HTTP_OPENSSL_POINTER)
#undef MC_HTTP_OPENSSL_POINTER
};

// LoadTlsLibrary opens `name` once per name and process. It finds every call above in it, the
// libcrypto calls through its dependency. A missing library or call is unsupported. The words say
// https needs it.
Result<const TlsLibrary*> LoadTlsLibrary(const std::string& name);

// NewContext makes a context for `method`: TLS_client_method or TLS_server_method. Every connection
// of ours has it so:
// - TLS 1.2 at least, 1.3 offered;
// - 1.2's suites: ECDHE with AES-GCM or ChaCha20 only;
// - no renegotiation or compression.
Result<SSL_CTX*> NewContext(const TlsLibrary& tls, const SSL_METHOD* method);

// NewSocketBio makes a BIO over the non-blocking socket `*fd`. It reads `*fd` through the pointer,
// so the int must outlive it. OpenSSL's own socket BIO writes with write(2). That raises SIGPIPE
// when the peer has gone. This one sends with MSG_NOSIGNAL. A reset reads as the end. Null when
// OpenSSL could not make it.
BIO* NewSocketBio(const TlsLibrary& tls, const int* fd);

// TlsErrorText: OpenSSL's words for the errors its last failed call queued on this thread. On one
// line. `fallback` when it queued none.
std::string TlsErrorText(const TlsLibrary& tls, const std::string& fallback);

}  // namespace mc::http
