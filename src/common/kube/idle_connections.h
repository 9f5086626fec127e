// IdleConnections keeps the API client's open connections between requests. So the next request
// skips the TCP and TLS handshakes. A connection is lent to one caller at a time. Threads never
// share one.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "common/http/transport.h"

namespace mc::kube {

class IdleConnections {
 public:
  // More idle connections than this are closed on return. The client rarely has more requests in
  // flight at once. Each one kept holds a socket on the API server.
  static constexpr std::size_t kMaxIdle = 8;

  // Take lends the connection returned last that still looks open, or null. A connection readable
  // while idle was closed by the server. Or the server sent what nobody asked for. Take drops it.
  // If the server closes one later, the caller notices and retries.
  std::unique_ptr<http::Stream> Take();

  // Put keeps `stream` for the next request. Its last answer was read whole.
  void Put(std::unique_ptr<http::Stream> stream);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<http::Stream>> idle_;
};

}  // namespace mc::kube
