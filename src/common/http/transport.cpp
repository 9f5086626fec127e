#include "common/http/transport.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "common/http/tls_library.h"

namespace mc::http {
namespace {

int MillisecondsUntil(Deadline deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, INT_MAX));
}

// WaitFor waits until `fd` is ready for `events` or `deadline` passes. False on the deadline.
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
        // To whoever reads, a reset ends the stream as a close does.
        if (errno == ECONNRESET) return std::size_t{0};
        return Unavailable(std::string("reading: ") + std::strerror(errno));
      }
      Result<bool> ready = WaitFor(fd_, POLLIN, deadline);
      if (!ready) return ready.error();
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
      if (!ready) return ready.error();
      if (!*ready) return TimedOut("writing");
    }
    return Ok();
  }

  int fd() const override { return fd_; }

 private:
  int fd_;
};

// The system's trusted certificates, as Debian's ca-certificates writes them.
constexpr const char* kSystemTrustStore = "/etc/ssl/certs/ca-certificates.crt";
// TlsSession: one connection's socket and OpenSSL's state for it. It sits at a fixed address: the
// BIO points at the socket.
struct TlsSession {
  explicit TlsSession(const TlsLibrary& library, int socket) : tls(library), fd(socket) {}
  ~TlsSession() {
    if (ssl) tls.SSL_free(ssl);  // and the BIO with it
    close(fd);
  }
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  const TlsLibrary& tls;
  const int fd;
  SSL* ssl = nullptr;
  bool verifying = false;
};

class TlsStream : public Stream {
 public:
  explicit TlsStream(std::unique_ptr<TlsSession> session) : session_(std::move(session)) {}
  ~TlsStream() override {
    // A best-effort close_notify. The socket closes with the session either way.
    tls().ERR_clear_error();
    tls().SSL_shutdown(ssl());
  }

  // Handshake runs the client's side of TLS by `deadline`. It checks the peer's certificate.
  Result<void> Handshake(const std::string& origin, Deadline deadline) {
    while (true) {
      tls().ERR_clear_error();
      const int done = tls().SSL_connect(ssl());
      if (done == 1) return Ok();
      const long verified = tls().SSL_get_verify_result(ssl());
      if (session_->verifying && verified != X509_V_OK)
        return Unavailable("TLS with " + origin + ": the server's certificate does not verify: " +
                           tls().X509_verify_cert_error_string(verified));
      Result<bool> waited = WaitForTls(done, deadline);
      if (!waited) return Unavailable("TLS with " + origin + ": " + waited.error_message());
      if (!*waited) return DeadlineExceeded("TLS with " + origin + ": the handshake timed out");
    }
  }

  Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) override {
    const int want = static_cast<int>(std::min<std::size_t>(size, INT_MAX));
    while (true) {
      tls().ERR_clear_error();
      const int got = tls().SSL_read(ssl(), data, want);
      if (got > 0) return static_cast<std::size_t>(got);
      // A server close ends the stream, with or without TLS's close_notify. The HTTP framing above
      // says whether the message was whole.
      if (tls().SSL_get_error(ssl(), got) == SSL_ERROR_ZERO_RETURN) return std::size_t{0};
      Result<bool> waited = WaitForTls(got, deadline);
      if (!waited) return waited.error();
      if (!*waited) return TimedOut("reading");
    }
  }

  Result<void> Write(std::string_view data, Deadline deadline) override {
    while (!data.empty()) {
      // Repeat a write that must wait with the same bytes. OpenSSL requires that.
      const int size = static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20));
      tls().ERR_clear_error();
      const int sent = tls().SSL_write(ssl(), data.data(), size);
      if (sent > 0) {
        data.remove_prefix(static_cast<std::size_t>(sent));
        continue;
      }
      Result<bool> waited = WaitForTls(sent, deadline);
      if (!waited) return waited.error();
      if (!*waited) return TimedOut("writing");
    }
    return Ok();
  }

  bool HasBuffered() const override { return tls().SSL_has_pending(session_->ssl) == 1; }
  int fd() const override { return session_->fd; }

 private:
  const TlsLibrary& tls() const { return session_->tls; }
  SSL* ssl() { return session_->ssl; }

  // WaitForTls waits for what OpenSSL said the call needs. `result` is that call's answer. Any
  // other answer is an error in OpenSSL's words.
  Result<bool> WaitForTls(int result, Deadline deadline) {
    const int error = tls().SSL_get_error(ssl(), result);
    if (error == SSL_ERROR_WANT_READ) return WaitFor(fd(), POLLIN, deadline);
    if (error == SSL_ERROR_WANT_WRITE) return WaitFor(fd(), POLLOUT, deadline);
    const std::string system = errno ? std::strerror(errno) : "the connection closed";
    return Unavailable("TLS: " + TlsErrorText(tls(), error == SSL_ERROR_SYSCALL
                                                         ? system
                                                         : "error " + std::to_string(error)));
  }

  std::unique_ptr<TlsSession> session_;
};

// Certificates reads every certificate of PEM text. None when none parse.
std::vector<X509*> Certificates(const TlsLibrary& tls, const std::string& pem) {
  std::vector<X509*> certificates;
  BIO* text = tls.BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (!text) return certificates;
  while (X509* certificate = tls.PEM_read_bio_X509(text, nullptr, nullptr, nullptr))
    certificates.push_back(certificate);
  tls.BIO_free(text);
  tls.ERR_clear_error();  // the end of the text reads as an error
  return certificates;
}

// Trust makes `context` trust the options' authorities. Those are the given PEM text, else the
// given file, else the system's store.
Result<void> Trust(const TlsLibrary& tls, SSL_CTX* context, const TransportOptions& options) {
  const std::string source = !options.ca_pem.empty()    ? "the given certificate authority data"
                             : !options.ca_file.empty() ? options.ca_file
                                                        : kSystemTrustStore;
  const std::string failed = "the trusted certificates (" + source + ") could not be loaded: ";
  if (options.ca_pem.empty()) {
    const std::string file = options.ca_file.empty() ? kSystemTrustStore : options.ca_file;
    if (tls.SSL_CTX_load_verify_locations(context, file.c_str(), nullptr) != 1)
      return Unavailable(failed + TlsErrorText(tls, "none of them could be read"));
    return Ok();
  }
  const std::vector<X509*> certificates = Certificates(tls, options.ca_pem);
  if (certificates.empty()) return Unavailable(failed + "none of them could be read");
  X509_STORE* store = tls.SSL_CTX_get_cert_store(context);
  for (X509* certificate : certificates) {
    tls.X509_STORE_add_cert(store, certificate);  // the store takes its own reference
    tls.X509_free(certificate);
  }
  tls.ERR_clear_error();  // a certificate given twice is not a failure
  return Ok();
}

// ProveIdentity: `context` answers a server that asks with the options' certificate.
Result<void> ProveIdentity(const TlsLibrary& tls, SSL_CTX* context,
                           const TransportOptions& options) {
  if (options.client_certificate_pem.empty() != options.client_key_pem.empty())
    return InvalidInput("a client certificate needs its key, and a key its certificate");
  if (options.client_certificate_pem.empty()) return Ok();
  const std::vector<X509*> certificates = Certificates(tls, options.client_certificate_pem);
  if (certificates.empty()) return InvalidInput("the client certificate cannot be read");
  const int used = tls.SSL_CTX_use_certificate(context, certificates.front());
  for (X509* certificate : certificates) tls.X509_free(certificate);
  if (used != 1)
    return InvalidInput("the client certificate cannot be used: " + TlsErrorText(tls, "refused"));
  BIO* text = tls.BIO_new_mem_buf(options.client_key_pem.data(),
                                  static_cast<int>(options.client_key_pem.size()));
  EVP_PKEY* key = text ? tls.PEM_read_bio_PrivateKey(text, nullptr, nullptr, nullptr) : nullptr;
  if (text) tls.BIO_free(text);
  if (!key)
    return InvalidInput("the client key cannot be read: " + TlsErrorText(tls, "no PEM key"));
  const bool matches =
      tls.SSL_CTX_use_PrivateKey(context, key) == 1 && tls.SSL_CTX_check_private_key(context) == 1;
  tls.EVP_PKEY_free(key);
  if (!matches)
    return InvalidInput("the client key does not fit its certificate: " +
                        TlsErrorText(tls, "refused"));
  return Ok();
}

// MakeContext makes a client context for the options:
// - TLS 1.2 at least, 1.3 offered;
// - 1.2's AEAD suites only;
// - the peer verified, unless told not to.
Result<SSL_CTX*> MakeContext(const TlsLibrary& tls, const TransportOptions& options) {
  Result<SSL_CTX*> context = NewContext(tls, tls.TLS_client_method());
  if (!context) return context.error();
  Result<void> made = Ok();
  if (options.verify_peer) made = Trust(tls, *context, options);
  if (made) made = ProveIdentity(tls, *context, options);
  if (!made) {
    tls.SSL_CTX_free(*context);
    return made.error();
  }
  tls.SSL_CTX_set_verify(*context, options.verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE,
                         nullptr);
  return context;
}

// FileVersion names one version of a file: identity, size, change time.
std::string FileVersion(const std::string& path) {
  struct stat facts {};
  if (stat(path.c_str(), &facts) != 0) return "absent";
  return std::to_string(facts.st_dev) + ":" + std::to_string(facts.st_ino) + ":" +
         std::to_string(facts.st_size) + ":" + std::to_string(facts.st_mtim.tv_sec) + "." +
         std::to_string(facts.st_mtim.tv_nsec);
}

// ContextFor gives the context of the options' trust and identity. It is made the first time. The
// trusted certificates are read once, not per connection. They are read again when their file
// changes, as for a rotated authority. A process has a handful, kept for its life as the library
// is.
Result<SSL_CTX*> ContextFor(const TlsLibrary& tls, const TransportOptions& options) {
  static std::mutex mutex;
  // Never destroyed. A context may be in use until the process ends.
  static auto* const contexts = new std::map<std::string, SSL_CTX*>;
  std::string trust = options.ca_pem;
  if (options.verify_peer && trust.empty()) {
    const std::string file = options.ca_file.empty() ? kSystemTrustStore : options.ca_file;
    trust = file + '\0' + FileVersion(file);
  }
  const std::string key = std::string(options.verify_peer ? "v" : "-") + '\0' + trust + '\0' +
                          options.client_certificate_pem + '\0' + options.client_key_pem;
  std::lock_guard lock(mutex);
  if (const auto found = contexts->find(key); found != contexts->end()) return found->second;
  Result<SSL_CTX*> made = MakeContext(tls, options);
  if (made) contexts->emplace(key, *made);
  return made;
}

bool IsAddress(const std::string& host) {
  in6_addr bytes{};
  return inet_pton(AF_INET, host.c_str(), &bytes) == 1 ||
         inet_pton(AF_INET6, host.c_str(), &bytes) == 1;
}

// Configure sets up `session`'s connection. The library checks it against the URL's host name or
// address. Or against the options' server name. The host name is sent as SNI. SNI names a host,
// never an address literal (RFC 6066 section 3).
Result<void> Configure(TlsSession& session, const Url& url, const TransportOptions& options) {
  const TlsLibrary& tls = session.tls;
  Result<SSL_CTX*> context = ContextFor(tls, options);
  if (!context) return context.error();
  session.ssl = tls.SSL_new(*context);
  BIO* socket = session.ssl ? NewSocketBio(tls, &session.fd) : nullptr;
  if (!socket) return Internal("no TLS connection: " + TlsErrorText(tls, "out of memory"));
  tls.SSL_set_bio(session.ssl, socket, socket);
  const std::string& name = options.server_name.empty() ? url.host : options.server_name;
  const bool address = IsAddress(name);
  if (!address) {
    tls.SSL_ctrl(session.ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                 const_cast<char*>(name.c_str()));
  }
  session.verifying = options.verify_peer;
  if (!options.verify_peer) return Ok();
  const int checked =
      address ? tls.X509_VERIFY_PARAM_set1_ip_asc(tls.SSL_get0_param(session.ssl), name.c_str())
              : tls.SSL_set1_host(session.ssl, name.c_str());
  if (checked != 1)
    return Internal("the host name check could not be set: " + TlsErrorText(tls, "refused"));
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
      why = !ready    ? ready.error_message()
            : !*ready ? "the connection timed out"
                      : std::strerror(error);
    } else {
      why = std::strerror(errno);
    }
    close(fd);
  }
  freeaddrinfo(found);
  if (connected < 0) return Unavailable("connecting to " + url.Origin() + ": " + why);
  // Requests and answers are small and written whole. Nagle's delay would only add latency.
  const int yes = 1;
  setsockopt(connected, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return connected;
}

Result<std::unique_ptr<Stream>> ConnectTls(const Url& url, int fd, Deadline deadline,
                                           const TransportOptions& options) {
  Result<const TlsLibrary*> loaded = LoadTlsLibrary(options.tls_library);
  if (!loaded) {
    close(fd);
    return loaded.error();
  }
  auto session = std::make_unique<TlsSession>(**loaded, fd);
  if (Result<void> configured = Configure(*session, url, options); !configured)
    return configured.error().WithContext("TLS with " + url.Origin());
  auto stream = std::make_unique<TlsStream>(std::move(session));
  if (Result<void> shaken = stream->Handshake(url.Origin(), deadline); !shaken)
    return shaken.error();
  return std::unique_ptr<Stream>(std::move(stream));
}

}  // namespace

void Stream::Interrupt() const { shutdown(fd(), SHUT_RDWR); }
void Stream::ShutdownWrite() const { shutdown(fd(), SHUT_WR); }

Result<std::unique_ptr<Stream>> Connect(const Url& url, Deadline deadline,
                                        const TransportOptions& options) {
  Result<int> fd = ConnectTcp(url, deadline);
  if (!fd) return fd.error();
  if (url.scheme == "https") return ConnectTls(url, *fd, deadline, options);
  return std::unique_ptr<Stream>(std::make_unique<SocketStream>(*fd));
}

std::unique_ptr<Stream> AdoptSocket(int fd) {
  // Every wait is a poll with a deadline. Only a non-blocking socket allows that.
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  const int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return std::make_unique<SocketStream>(fd);
}

}  // namespace mc::http
