#include "common/http/transport.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <utility>
#include <vector>

#include "common/http/certificate_names.h"
#include "common/http/tls_library.h"

namespace mc::http {
namespace {

int MillisecondsUntil(Deadline deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, INT_MAX));
}

// WaitFor waits until `fd` is ready for `events` or `deadline` passes; false on the deadline.
Result<bool> WaitFor(int fd, short events, Deadline deadline) {
  while (true) {
    pollfd entry{.fd = fd, .events = events, .revents = 0};
    const int ready = poll(&entry, 1, MillisecondsUntil(deadline));
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) return Internal(std::string("poll: ") + std::strerror(errno));
  }
}

Error TimedOut(const char* what) { return DeadlineExceeded(std::string(what) + " timed out"); }

class SocketStream : public Stream {
 public:
  explicit SocketStream(int fd) : fd_(fd) {}
  ~SocketStream() override { close(fd_); }

  Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) override {
    while (true) {
      const ssize_t got = recv(fd_, data, size, 0);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        // A reset ends the stream as a close does, for whoever reads it.
        if (errno == ECONNRESET) return std::size_t{0};
        return Unavailable(std::string("reading: ") + std::strerror(errno));
      }
      Result<bool> ready = WaitFor(fd_, POLLIN, deadline);
      if (!ready) return ready.failure();
      if (!*ready) return TimedOut("reading");
    }
  }

  Result<void> Write(std::string_view data, Deadline deadline) override {
    while (!data.empty()) {
      const ssize_t sent = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (sent >= 0) {
        data.remove_prefix(static_cast<std::size_t>(sent));
        continue;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        return Unavailable(std::string("writing: ") + std::strerror(errno));
      Result<bool> ready = WaitFor(fd_, POLLOUT, deadline);
      if (!ready) return ready.failure();
      if (!*ready) return TimedOut("writing");
    }
    return Ok();
  }

  int fd() const override { return fd_; }

 private:
  int fd_;
};

// The system's store of trusted certificates, as Debian's ca-certificates writes it.
constexpr const char* kSystemTrustStore = "/etc/ssl/certs/ca-certificates.crt";

// TlsSession is everything Mbed TLS keeps for one connection, at a fixed address: the
// configuration points at the certificates and the random generator, the context at the
// configuration and at the socket.
struct TlsSession {
  explicit TlsSession(const TlsLibrary& library, int socket) : tls(library), fd(socket) {
    tls.mbedtls_entropy_init(&entropy);
    tls.mbedtls_ctr_drbg_init(&random);
    tls.mbedtls_x509_crt_init(&trusted);
    tls.mbedtls_x509_crt_init(&own_certificate);
    tls.mbedtls_pk_init(&own_key);
    tls.mbedtls_ssl_config_init(&config);
    tls.mbedtls_ssl_init(&ssl);
  }
  ~TlsSession() {
    tls.mbedtls_ssl_free(&ssl);
    tls.mbedtls_ssl_config_free(&config);
    tls.mbedtls_pk_free(&own_key);
    tls.mbedtls_x509_crt_free(&own_certificate);
    tls.mbedtls_x509_crt_free(&trusted);
    tls.mbedtls_ctr_drbg_free(&random);
    tls.mbedtls_entropy_free(&entropy);
    close(fd);
  }
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  const TlsLibrary& tls;
  const int fd;
  // The address the URL names, as raw bytes, when it names one: Mbed TLS checks only DNS
  // names, so the verification callback checks the certificate's iPAddress names.
  std::string address;
  mbedtls_entropy_context entropy;
  mbedtls_ctr_drbg_context random;
  mbedtls_x509_crt trusted;
  mbedtls_x509_crt own_certificate;
  mbedtls_pk_context own_key;
  mbedtls_ssl_config config;
  mbedtls_ssl_context ssl;
};

// The socket under TLS, for Mbed TLS: non-blocking, so that every wait is the stream's poll
// with its deadline; a close or a reset reads as the end of the stream.
int SendToSocket(void* context, const unsigned char* data, std::size_t size) {
  const int fd = static_cast<TlsSession*>(context)->fd;
  while (true) {
    const ssize_t sent = send(fd, data, size, MSG_NOSIGNAL);
    if (sent >= 0) return static_cast<int>(sent);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return MBEDTLS_ERR_SSL_WANT_WRITE;
    return MBEDTLS_ERR_SSL_INTERNAL_ERROR;
  }
}

int ReceiveFromSocket(void* context, unsigned char* data, std::size_t size) {
  const int fd = static_cast<TlsSession*>(context)->fd;
  while (true) {
    const ssize_t got = recv(fd, data, size, 0);
    if (got >= 0) return static_cast<int>(got);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return MBEDTLS_ERR_SSL_WANT_READ;
    if (errno == ECONNRESET) return 0;
    return MBEDTLS_ERR_SSL_INTERNAL_ERROR;
  }
}

// CheckAddress is Mbed TLS's verification callback: for a URL that names an address, the
// server's own certificate (depth 0) must list that address among its iPAddress names.
int CheckAddress(void* context, mbedtls_x509_crt* certificate, int depth, std::uint32_t* flags) {
  const auto* session = static_cast<const TlsSession*>(context);
  if (depth != 0 || session->address.empty()) return 0;
  Result<std::vector<std::string>> addresses = CertificateIpAddresses(
      std::string_view(reinterpret_cast<const char*>(certificate->raw.p), certificate->raw.len));
  const bool listed = addresses && std::find(addresses->begin(), addresses->end(),
                                             session->address) != addresses->end();
  if (!listed) *flags |= MBEDTLS_X509_BADCERT_CN_MISMATCH;
  return 0;
}

class TlsStream : public Stream {
 public:
  explicit TlsStream(std::unique_ptr<TlsSession> session) : session_(std::move(session)) {}
  ~TlsStream() override {
    // A best-effort close_notify; the socket closes with the session either way.
    session_->tls.mbedtls_ssl_close_notify(&session_->ssl);
  }

  // Handshake runs the client's side of TLS by `deadline` and checks the peer's certificate.
  Result<void> Handshake(const std::string& origin, Deadline deadline) {
    while (true) {
      const int done = tls().mbedtls_ssl_handshake(ssl());
      if (done == 0) return Ok();
      if (done == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED)
        return Unavailable("TLS with " + origin + ": the server's certificate does not verify: " +
                           VerifyText(tls().mbedtls_ssl_get_verify_result(ssl())));
      Result<bool> waited = WaitForTls(done, deadline);
      if (!waited) return Unavailable("TLS with " + origin + ": " + waited.error());
      if (!*waited) return DeadlineExceeded("TLS with " + origin + ": the handshake timed out");
    }
  }

  Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) override {
    const std::size_t want = std::min<std::size_t>(size, INT_MAX);
    while (true) {
      const int got = tls().mbedtls_ssl_read(ssl(), reinterpret_cast<unsigned char*>(data), want);
      if (got > 0) return static_cast<std::size_t>(got);
      // A server that closes without TLS's close_notify ends the stream as a close does; the
      // HTTP framing above says whether the message was whole.
      if (got == 0 || got == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY || got == MBEDTLS_ERR_SSL_CONN_EOF)
        return std::size_t{0};
      Result<bool> waited = WaitForTls(got, deadline);
      if (!waited) return waited.failure();
      if (!*waited) return TimedOut("reading");
    }
  }

  Result<void> Write(std::string_view data, Deadline deadline) override {
    while (!data.empty()) {
      const std::size_t size = std::min<std::size_t>(data.size(), 1 << 20);
      const int sent =
          tls().mbedtls_ssl_write(ssl(), reinterpret_cast<const unsigned char*>(data.data()), size);
      if (sent > 0) {
        data.remove_prefix(static_cast<std::size_t>(sent));
        continue;
      }
      Result<bool> waited = WaitForTls(sent, deadline);
      if (!waited) return waited.failure();
      if (!*waited) return TimedOut("writing");
    }
    return Ok();
  }

  bool HasBuffered() const override {
    return tls().mbedtls_ssl_get_bytes_avail(&session_->ssl) > 0 ||
           tls().mbedtls_ssl_check_pending(&session_->ssl) != 0;
  }
  int fd() const override { return session_->fd; }

 private:
  const TlsLibrary& tls() const { return session_->tls; }
  mbedtls_ssl_context* ssl() { return &session_->ssl; }

  // WaitForTls waits for what Mbed TLS said the call that answered `result` needs; any other
  // answer is an error in its words.
  Result<bool> WaitForTls(int result, Deadline deadline) {
    if (result == MBEDTLS_ERR_SSL_WANT_READ) return WaitFor(fd(), POLLIN, deadline);
    if (result == MBEDTLS_ERR_SSL_WANT_WRITE) return WaitFor(fd(), POLLOUT, deadline);
    return Unavailable("TLS: " + TlsErrorText(tls(), result));
  }

  // VerifyText is Mbed TLS's reasons for refusing a certificate, on one line.
  std::string VerifyText(std::uint32_t flags) const {
    char text[1024] = {};
    tls().mbedtls_x509_crt_verify_info(text, sizeof text, "", flags);
    std::string line;
    for (std::string_view rest = text; !rest.empty();) {
      const std::size_t end = rest.find('\n');
      const std::string_view reason = rest.substr(0, end);
      if (!reason.empty()) line += (line.empty() ? "" : "; ") + std::string(reason);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    return line.empty() ? "no reason given" : line;
  }

  std::unique_ptr<TlsSession> session_;
};

// PemInput is PEM text as Mbed TLS parses it: with its terminating NUL counted.
std::pair<const unsigned char*, std::size_t> PemInput(const std::string& pem) {
  return {reinterpret_cast<const unsigned char*>(pem.c_str()), pem.size() + 1};
}

// Configure sets up `session` for a client that verifies (or, when told not to, accepts) the
// server and proves itself with the options' certificate; the error says which part failed.
Result<void> Configure(TlsSession& session, const Url& url, const TransportOptions& options) {
  const TlsLibrary& tls = session.tls;
  if (const int failed = tls.mbedtls_ctr_drbg_seed(&session.random, tls.mbedtls_entropy_func,
                                                   &session.entropy, nullptr, 0)) {
    return Internal("no random numbers: " + TlsErrorText(tls, failed));
  }
  if (const int failed = tls.mbedtls_ssl_config_defaults(&session.config, MBEDTLS_SSL_IS_CLIENT,
                                                         MBEDTLS_SSL_TRANSPORT_STREAM,
                                                         MBEDTLS_SSL_PRESET_DEFAULT)) {
    return Internal("no TLS configuration: " + TlsErrorText(tls, failed));
  }
  tls.mbedtls_ssl_conf_rng(&session.config, tls.mbedtls_ctr_drbg_random, &session.random);
  if (options.verify_peer) {
    const std::string source = !options.ca_pem.empty()    ? "the given certificate authority data"
                               : !options.ca_file.empty() ? options.ca_file
                                                          : kSystemTrustStore;
    int failed = 0;
    if (!options.ca_pem.empty()) {
      const auto [data, size] = PemInput(options.ca_pem);
      failed = tls.mbedtls_x509_crt_parse(&session.trusted, data, size);
    } else {
      failed = tls.mbedtls_x509_crt_parse_file(
          &session.trusted, options.ca_file.empty() ? kSystemTrustStore : options.ca_file.c_str());
    }
    // A positive answer counts the certificates of a bundle that could not be read; the
    // others still serve, as a store with one odd entry should.
    if (failed < 0 || session.trusted.version == 0)
      return Unavailable("the trusted certificates (" + source + ") could not be loaded: " +
                         (failed < 0 ? TlsErrorText(tls, failed) : "none of them could be read"));
    tls.mbedtls_ssl_conf_authmode(&session.config, MBEDTLS_SSL_VERIFY_REQUIRED);
    tls.mbedtls_ssl_conf_ca_chain(&session.config, &session.trusted, nullptr);
    session.address = AddressBytes(url.host);
    tls.mbedtls_ssl_conf_verify(&session.config, CheckAddress, &session);
  } else {
    tls.mbedtls_ssl_conf_authmode(&session.config, MBEDTLS_SSL_VERIFY_NONE);
  }
  if (options.client_certificate_pem.empty() != options.client_key_pem.empty())
    return InvalidInput("a client certificate needs its key, and a key its certificate");
  if (!options.client_certificate_pem.empty()) {
    const auto [certificate, certificate_size] = PemInput(options.client_certificate_pem);
    if (const int failed =
            tls.mbedtls_x509_crt_parse(&session.own_certificate, certificate, certificate_size))
      return InvalidInput("the client certificate cannot be read: " + TlsErrorText(tls, failed));
    const auto [key, key_size] = PemInput(options.client_key_pem);
    if (const int failed = tls.mbedtls_pk_parse_key(&session.own_key, key, key_size, nullptr, 0))
      return InvalidInput("the client key cannot be read: " + TlsErrorText(tls, failed));
    if (const int failed = tls.mbedtls_ssl_conf_own_cert(&session.config, &session.own_certificate,
                                                         &session.own_key))
      return InvalidInput("the client certificate cannot be used: " + TlsErrorText(tls, failed));
  }
  if (const int failed = tls.mbedtls_ssl_setup(&session.ssl, &session.config))
    return Internal("no TLS context: " + TlsErrorText(tls, failed));
  // The host name is checked against the certificate's DNS names and sent as SNI, which
  // names a host, never an address literal (RFC 6066 section 3).
  if (session.address.empty() && options.verify_peer) {
    if (const int failed = tls.mbedtls_ssl_set_hostname(&session.ssl, url.host.c_str()))
      return Internal("the host name check could not be set: " + TlsErrorText(tls, failed));
  }
  tls.mbedtls_ssl_set_bio(&session.ssl, &session, SendToSocket, ReceiveFromSocket, nullptr);
  return Ok();
}

Result<int> ConnectTcp(const Url& url, Deadline deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url.port);
  if (const int status = getaddrinfo(url.host.c_str(), port.c_str(), &hints, &found); status != 0) {
    return Unavailable(url.Origin() + ": " + gai_strerror(status));
  }
  std::string why = "no address";
  int connected = -1;
  for (const addrinfo* address = found; address && connected < 0; address = address->ai_next) {
    const int fd = socket(address->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
      why = std::strerror(errno);
      continue;
    }
    if (connect(fd, address->ai_addr, address->ai_addrlen) == 0 || errno == EINPROGRESS) {
      Result<bool> ready = WaitFor(fd, POLLOUT, deadline);
      int error = 0;
      socklen_t length = sizeof error;
      if (ready && *ready && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 &&
          error == 0) {
        connected = fd;
        break;
      }
      why = !ready ? ready.error() : !*ready ? "the connection timed out" : std::strerror(error);
    } else {
      why = std::strerror(errno);
    }
    close(fd);
  }
  freeaddrinfo(found);
  if (connected < 0) return Unavailable("connecting to " + url.Origin() + ": " + why);
  // Requests and answers are small and written whole: Nagle's delay would only add latency.
  const int yes = 1;
  setsockopt(connected, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return connected;
}

Result<std::unique_ptr<Stream>> ConnectTls(const Url& url, int fd, Deadline deadline,
                                           const TransportOptions& options) {
  Result<const TlsLibrary*> loaded = LoadTlsLibrary(options.tls_library);
  if (!loaded) {
    close(fd);
    return loaded.failure();
  }
  auto session = std::make_unique<TlsSession>(**loaded, fd);
  if (Result<void> configured = Configure(*session, url, options); !configured)
    return configured.failure().WithContext("TLS with " + url.Origin());
  auto stream = std::make_unique<TlsStream>(std::move(session));
  if (Result<void> shaken = stream->Handshake(url.Origin(), deadline); !shaken)
    return shaken.failure();
  return std::unique_ptr<Stream>(std::move(stream));
}

}  // namespace

void Stream::Interrupt() const { shutdown(fd(), SHUT_RDWR); }
void Stream::ShutdownWrite() const { shutdown(fd(), SHUT_WR); }

Result<std::unique_ptr<Stream>> Connect(const Url& url, Deadline deadline,
                                        const TransportOptions& options) {
  Result<int> fd = ConnectTcp(url, deadline);
  if (!fd) return fd.failure();
  if (url.scheme == "https") return ConnectTls(url, *fd, deadline, options);
  return std::unique_ptr<Stream>(std::make_unique<SocketStream>(*fd));
}

std::unique_ptr<Stream> AdoptSocket(int fd) {
  // Every wait is a poll with a deadline, which only a non-blocking socket allows.
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  const int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return std::make_unique<SocketStream>(fd);
}

}  // namespace mc::http
