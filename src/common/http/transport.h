// A connected byte stream with deadlines: a plain TCP connection, or TLS over one for https.
// TLS is OpenSSL 3, opened with dlopen the first time an https URL is connected, so that the
// binary, whose probe's start-up is measured, loads no TLS library it does not use
// (docs/architecture.md, "One binary"): TLS 1.2 at least, 1.3 offered. The peer's certificate
// is verified against the system's trust store and the URL's host name or address, by the
// library, and a host name is sent as SNI.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/url.h"

namespace mc::http {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

struct TransportOptions {
  // A PEM file of certificates to trust instead of the system's store; tests name their own
  // authority here.
  std::string ca_file;
  // PEM text of certificates to trust instead of the system's store (a kubeconfig's
  // certificate-authority-data); it wins over `ca_file`.
  std::string ca_pem;
  // A client certificate and its private key, as PEM text, sent when the server asks for one;
  // both or neither.
  std::string client_certificate_pem;
  std::string client_key_pem;
  // The name the server's certificate must hold, where it is not the URL's host: a URL that
  // names an address no certificate can hold (a pod's IP), as client-go's tls-server-name.
  // It is sent as SNI too.
  std::string server_name;
  // False only where the configuration says so (a kubeconfig's insecure-skip-tls-verify):
  // any certificate is accepted, for any name.
  bool verify_peer = true;
  // The library to open for TLS; another name only to test the error of a missing one.
  std::string tls_library = "libssl.so.3";
};

class Stream {
 public:
  virtual ~Stream() = default;
  // Read gives what has arrived, at most `size` bytes, waiting until `deadline` for at least
  // one: 0 at the end of the stream, DeadlineExceeded when nothing came in time.
  virtual Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) = 0;
  // Write sends all of `data` by `deadline`.
  virtual Result<void> Write(std::string_view data, Deadline deadline) = 0;
  // HasBuffered is whether bytes already taken off the socket wait to be read (TLS records),
  // so that a poll loop reads before it polls.
  virtual bool HasBuffered() const { return false; }
  // The socket, for poll; the stream keeps owning it.
  virtual int fd() const = 0;
  // Interrupt makes every wait on this stream end now, from any thread: a stopping server
  // wakes the threads that serve its connections this way.
  void Interrupt() const;
  // ShutdownWrite tells the peer that nothing more will be sent.
  void ShutdownWrite() const;
};

// Connect opens a stream to `url`'s host and port (TLS for https) by `deadline`. A host that
// does not resolve, a refused or timed-out connection, and a certificate that does not verify
// are unavailable, naming the URL's origin and why; https without libssl.so.3 is unsupported.
Result<std::unique_ptr<Stream>> Connect(const Url& url, Deadline deadline,
                                        const TransportOptions& options = {});

// AdoptSocket makes a stream of an accepted connection; the stream closes it.
std::unique_ptr<Stream> AdoptSocket(int fd);

}  // namespace mc::http
