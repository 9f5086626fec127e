#include "common/http/server_tls.h"

#include <poll.h>

#include <algorithm>
#include <climits>

#include "common/http/tls_library.h"

namespace mc::http {

TlsAccepted::~TlsAccepted() {
  if (ssl_) tls_.SSL_free(ssl_);  // and the BIO with it
}

IoStep TlsAccepted::Waiting(int result) {
  const int error = tls_.SSL_get_error(ssl_, result);
  tls_.ERR_clear_error();
  if (error == SSL_ERROR_WANT_READ) return {.wait = POLLIN};
  if (error == SSL_ERROR_WANT_WRITE) return {.wait = POLLOUT};
  return {.end = true};
}

IoStep TlsAccepted::Read(char* data, std::size_t size) {
  tls_.ERR_clear_error();
  const int got = tls_.SSL_read(ssl_, data, static_cast<int>(std::min<std::size_t>(size, INT_MAX)));
  if (got > 0) return {.bytes = static_cast<std::size_t>(got)};
  return Waiting(got);
}

IoStep TlsAccepted::Write(std::string_view data) {
  tls_.ERR_clear_error();
  const int sent = tls_.SSL_write(ssl_, data.data(),
                                  static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20)));
  if (sent > 0) return {.bytes = static_cast<std::size_t>(sent)};
  return Waiting(sent);
}

void TlsAccepted::Shutdown() {
  tls_.ERR_clear_error();
  tls_.SSL_shutdown(ssl_);
  tls_.ERR_clear_error();
}

Result<std::shared_ptr<const ServerTls>> ServerTls::Load(const ServerTlsFiles& files) {
  Result<const TlsLibrary*> loaded = LoadTlsLibrary(files.tls_library);
  if (!loaded) return loaded.error();
  const TlsLibrary& tls = **loaded;
  Result<SSL_CTX*> context = NewContext(tls, tls.TLS_server_method());
  if (!context) return context.error();
  Result<void> made = Ok();
  if (tls.SSL_CTX_use_certificate_chain_file(*context, files.certificate_file.c_str()) != 1) {
    made = InvalidInput(files.certificate_file +
                        ": no certificate could be used: " + TlsErrorText(tls, "unreadable"));
  } else if (tls.SSL_CTX_use_PrivateKey_file(*context, files.key_file.c_str(), SSL_FILETYPE_PEM) !=
             1) {
    made = InvalidInput(files.key_file + ": no key of " + files.certificate_file +
                        " could be used: " + TlsErrorText(tls, "unreadable"));
  } else if (tls.SSL_CTX_check_private_key(*context) != 1) {
    made = InvalidInput(files.key_file + " is not the key of " + files.certificate_file + ": " +
                        TlsErrorText(tls, "they differ"));
  }
  if (!made) {
    tls.SSL_CTX_free(*context);
    return made.error();
  }
  return std::shared_ptr<const ServerTls>(new ServerTls(tls, *context));
}

ServerTls::~ServerTls() { tls_.SSL_CTX_free(context_); }

std::unique_ptr<TlsAccepted> ServerTls::Accept(int fd) const {
  auto accepted = std::make_unique<TlsAccepted>(tls_, fd);
  accepted->ssl_ = tls_.SSL_new(context_);
  BIO* socket = accepted->ssl_ ? NewSocketBio(tls_, &accepted->fd_) : nullptr;
  if (!socket) {
    tls_.ERR_clear_error();
    return nullptr;
  }
  tls_.SSL_set_bio(accepted->ssl_, socket, socket);
  tls_.SSL_set_accept_state(accepted->ssl_);
  return accepted;
}

}  // namespace mc::http
