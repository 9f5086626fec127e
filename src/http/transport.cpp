#include "http/transport.h"

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

#include "http/tls_library.h"

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

class TlsStream : public Stream {
 public:
  TlsStream(const TlsLibrary& tls, int fd, SslCtx* context, Ssl* ssl)
      : tls_(tls), fd_(fd), context_(context), ssl_(ssl) {}
  ~TlsStream() override {
    tls_.SSL_free(ssl_);
    tls_.SSL_CTX_free(context_);
    close(fd_);
  }

  // Handshake runs the client's side of TLS by `deadline` and checks the peer's certificate.
  Result<void> Handshake(const std::string& origin, Deadline deadline) {
    while (true) {
      tls_.ERR_clear_error();
      const int done = tls_.SSL_connect(ssl_);
      if (done == 1) return Ok();
      Result<bool> waited = WaitForTls(done, deadline);
      if (!waited) {
        const long verify = tls_.SSL_get_verify_result(ssl_);
        if (verify != kX509VOk)
          return Unavailable("TLS with " + origin + ": the server's certificate does not verify: " +
                             tls_.X509_verify_cert_error_string(verify));
        return Unavailable("TLS with " + origin + ": " + waited.error());
      }
      if (!*waited) return DeadlineExceeded("TLS with " + origin + ": the handshake timed out");
    }
  }

  Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) override {
    const int want = static_cast<int>(std::min<std::size_t>(size, INT_MAX));
    while (true) {
      tls_.ERR_clear_error();
      const int got = tls_.SSL_read(ssl_, data, want);
      if (got > 0) return static_cast<std::size_t>(got);
      const int error = tls_.SSL_get_error(ssl_, got);
      if (error == kSslErrorZeroReturn) return std::size_t{0};
      Result<bool> waited = WaitForTls(got, deadline);
      if (!waited) return waited.failure();
      if (!*waited) return TimedOut("reading");
    }
  }

  Result<void> Write(std::string_view data, Deadline deadline) override {
    while (!data.empty()) {
      tls_.ERR_clear_error();
      const int size = static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20));
      const int sent = tls_.SSL_write(ssl_, data.data(), size);
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

  bool HasBuffered() const override { return tls_.SSL_pending(ssl_) > 0; }
  int fd() const override { return fd_; }

 private:
  // WaitForTls waits for what OpenSSL said the call `result` needs; an error otherwise.
  Result<bool> WaitForTls(int result, Deadline deadline) {
    const int error = tls_.SSL_get_error(ssl_, result);
    if (error == kSslErrorWantRead) return WaitFor(fd_, POLLIN, deadline);
    if (error == kSslErrorWantWrite) return WaitFor(fd_, POLLOUT, deadline);
    if (error == kSslErrorSyscall && errno != 0 && errno != EAGAIN)
      return Unavailable(std::string("TLS: ") + std::strerror(errno));
    return Unavailable("TLS: " + TlsErrorText(tls_));
  }

  const TlsLibrary& tls_;
  int fd_;
  SslCtx* context_;
  Ssl* ssl_;
};

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
  const TlsLibrary& tls = **loaded;
  SslCtx* context = tls.SSL_CTX_new(tls.TLS_client_method());
  if (!context) {
    close(fd);
    return Internal("TLS with " + url.Origin() + ": " + TlsErrorText(tls));
  }
  // Set before SSL_new, which copies them from the context.
  tls.SSL_CTX_set_verify(context, kSslVerifyPeer, nullptr);
  // A server that closes without TLS's close_notify ends the stream as a close does; the
  // HTTP framing above says whether the message was whole.
  tls.SSL_CTX_set_options(context, kSslOpIgnoreUnexpectedEof);
  const bool trusted =
      options.ca_file.empty()
          ? tls.SSL_CTX_set_default_verify_paths(context) == 1
          : tls.SSL_CTX_load_verify_locations(context, options.ca_file.c_str(), nullptr) == 1;
  Ssl* ssl = trusted ? tls.SSL_new(context) : nullptr;
  if (!ssl) {
    const std::string why = TlsErrorText(tls);
    tls.SSL_CTX_free(context);
    close(fd);
    return Unavailable("TLS with " + url.Origin() + ": the trusted certificates (" +
                       (options.ca_file.empty() ? "the system's store" : options.ca_file) +
                       ") could not be loaded: " + why);
  }
  auto stream = std::make_unique<TlsStream>(tls, fd, context, ssl);
  tls.SSL_set_fd(ssl, fd);
  // SNI names a host, never an address literal (RFC 6066 section 3).
  const bool literal = url.host.find(':') != std::string::npos ||
                       url.host.find_first_not_of("0123456789.") == std::string::npos;
  if (!literal)
    tls.SSL_ctrl(ssl, kSslCtrlSetTlsextHostname, kTlsextNametypeHostName,
                 const_cast<char*>(url.host.c_str()));
  if (tls.SSL_set1_host(ssl, url.host.c_str()) != 1)
    return Internal("TLS with " + url.Origin() + ": the host name check could not be set");
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
