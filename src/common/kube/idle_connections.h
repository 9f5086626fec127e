// IdleConnections keeps the API client's open connections between requests, so that the next
// request to the server skips the TCP and TLS handshakes. A connection is lent to one caller
// at a time; calls from many threads never share one.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "common/http/transport.h"

namespace mc::kube {

class IdleConnections {
 public:
  // More idle connections than this are closed on return: the client rarely has more
  // requests in flight at once, and each one kept holds a socket on the API server.
  static constexpr std::size_t kMaxIdle = 8;

  // Take lends the most recently returned connection that still looks open, or null. One
  // that is readable while idle was closed by the server (or sent what nobody asked for) and
  // is dropped here; one the server closes later is the caller's to notice and retry.
  std::unique_ptr<http::Stream> Take();

  // Put keeps `stream`, whose last answer was read whole, for the next request.
  void Put(std::unique_ptr<http::Stream> stream);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<http::Stream>> idle_;
};

}  // namespace mc::kube
