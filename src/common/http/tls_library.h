// Mbed TLS 2.28 (Debian 12's libmbedtls14), opened with dlopen: the calls a TLS client makes,
// typed from the library's own headers, so that running without https needs no TLS library
// at all and the binary's start-up loads none. The soname pins the ABI that the headers'
// structure layouts describe: libmbedtls.so.14 with libmbedx509.so.1 and libmbedcrypto.so.7.
#pragma once

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/pk.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>

#include <string>

#include "common/base/result.h"

namespace mc::http {

// Every call the transport makes, once: the table below declares a pointer for each, and the
// loader finds each by its name.
#define MC_HTTP_MBEDTLS_CALLS(CALL)   \
  CALL(mbedtls_ssl_init)              \
  CALL(mbedtls_ssl_free)              \
  CALL(mbedtls_ssl_setup)             \
  CALL(mbedtls_ssl_set_hostname)      \
  CALL(mbedtls_ssl_set_bio)           \
  CALL(mbedtls_ssl_handshake)         \
  CALL(mbedtls_ssl_read)              \
  CALL(mbedtls_ssl_write)             \
  CALL(mbedtls_ssl_get_bytes_avail)   \
  CALL(mbedtls_ssl_check_pending)     \
  CALL(mbedtls_ssl_get_verify_result) \
  CALL(mbedtls_ssl_close_notify)      \
  CALL(mbedtls_ssl_config_init)       \
  CALL(mbedtls_ssl_config_free)       \
  CALL(mbedtls_ssl_config_defaults)   \
  CALL(mbedtls_ssl_conf_authmode)     \
  CALL(mbedtls_ssl_conf_ca_chain)     \
  CALL(mbedtls_ssl_conf_own_cert)     \
  CALL(mbedtls_ssl_conf_rng)          \
  CALL(mbedtls_ssl_conf_verify)       \
  CALL(mbedtls_x509_crt_init)         \
  CALL(mbedtls_x509_crt_free)         \
  CALL(mbedtls_x509_crt_parse)        \
  CALL(mbedtls_x509_crt_parse_file)   \
  CALL(mbedtls_x509_crt_verify_info)  \
  CALL(mbedtls_pk_init)               \
  CALL(mbedtls_pk_free)               \
  CALL(mbedtls_pk_parse_key)          \
  CALL(mbedtls_entropy_init)          \
  CALL(mbedtls_entropy_free)          \
  CALL(mbedtls_entropy_func)          \
  CALL(mbedtls_ctr_drbg_init)         \
  CALL(mbedtls_ctr_drbg_free)         \
  CALL(mbedtls_ctr_drbg_seed)         \
  CALL(mbedtls_ctr_drbg_random)       \
  CALL(mbedtls_strerror)

struct TlsLibrary {
#define MC_HTTP_MBEDTLS_POINTER(name) decltype(&::name) name = nullptr;
  MC_HTTP_MBEDTLS_CALLS(MC_HTTP_MBEDTLS_POINTER)
#undef MC_HTTP_MBEDTLS_POINTER
};

// LoadTlsLibrary opens `name` once per name and process and finds every call above in it
// (the X.509 and crypto calls through its own dependencies); a missing library or call is
// unsupported, in words that say https needs it.
Result<const TlsLibrary*> LoadTlsLibrary(const std::string& name);

// TlsErrorText is Mbed TLS's words for one of its error codes.
std::string TlsErrorText(const TlsLibrary& tls, int code);

}  // namespace mc::http
