// A connected byte stream with deadlines: plain TCP, or TLS over it for https. TLS is OpenSSL 3. It
// is opened with dlopen at the first https connection. So the binary loads no TLS library it does
// not use. The probe's start-up is measured (docs/architecture.md, "One binary"). TLS 1.2 at least,
// 1.3 offered. The library verifies the peer's certificate. It checks against the system's trust
// store and the URL's host name or address. A host name is sent as SNI.
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
  // A PEM file of certificates to trust instead of the system's store. Tests name their own
  // authority here.
  std::string ca_file;
  // PEM text of certificates to trust instead of the system's store. Example: a kubeconfig's
  // certificate-authority-data. It wins over `ca_file`.
  std::string ca_pem;
  // A client certificate and its private key, as PEM text. Sent when the server asks. Both or
  // neither.
  std::string client_certificate_pem;
  std::string client_key_pem;
  // The name the server's certificate must hold, where not the URL's host. This is for a URL naming
  // an address no certificate holds, such as a pod's IP. It is client-go's tls-server-name. It is
  // sent as SNI too.
  std::string server_name;
  // False only where the configuration says so: a kubeconfig's insecure-skip-tls-verify. Then any
  // certificate is accepted, for any name.
  bool verify_peer = true;
  // The library to open for TLS. Another name only tests a missing one's error.
  std::string tls_library = "libssl.so.3";
};

class Stream {
 public:
  virtual ~Stream() = default;
  // Read gives what has arrived, at most `size` bytes. It waits until `deadline` for at least one.
  // 0 at the end of the stream. DeadlineExceeded when nothing came in time.
  virtual Result<std::size_t> Read(char* data, std::size_t size, Deadline deadline) = 0;
  // Write sends all of `data` by `deadline`.
  virtual Result<void> Write(std::string_view data, Deadline deadline) = 0;
  // HasBuffered: whether bytes taken off the socket (TLS records) wait to be read. A poll loop then
  // reads before it polls.
  virtual bool HasBuffered() const { return false; }
  // The socket, for poll; the stream keeps owning it.
  virtual int fd() const = 0;
  // Interrupt ends every wait on this stream now, from any thread. A stopping server wakes its
  // connections' threads this way.
  void Interrupt() const;
  // ShutdownWrite tells the peer nothing more will be sent.
  void ShutdownWrite() const;
};

// Connect opens a stream to `url`'s host and port by `deadline`, TLS for https. These are
// unavailable, naming the URL's origin and why:
// - a host that does not resolve;
// - a refused or timed-out connection;
// - a certificate that does not verify.
//
// https without libssl.so.3 is unsupported.
Result<std::unique_ptr<Stream>> Connect(const Url& url, Deadline deadline,
                                        const TransportOptions& options = {});

// AdoptSocket makes a stream of an accepted connection. The stream closes it.
std::unique_ptr<Stream> AdoptSocket(int fd);

}  // namespace mc::http
