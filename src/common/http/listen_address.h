// Opening a listening socket on "HOST:PORT". Examples: "127.0.0.1:9464", "[::1]:0", ":8081" for
// every address. Port 0 picks a free port. The bound address is read back.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::http {

struct Listener {
  int fd = -1;
  // The bound address as HOST:PORT, IPv6 hosts in brackets. Example: "127.0.0.1:41523".
  std::string host;
  int port = 0;
};

// Listen binds and listens on `address`. Errors name the address:
// - a malformed address is invalid input;
// - a port another program holds is a conflict, so the caller can say which setting picks
//   another;
// - any other failed bind is unavailable: the host not this machine's, say.
Result<Listener> Listen(const std::string& address);

// ListenHost: the HOST of "HOST:PORT", brackets removed. Empty for every address (":8081").
std::string ListenHost(const std::string& address);

// BoundAddress is the listener's HOST:PORT.
std::string BoundAddress(const Listener& listener);

}  // namespace mc::http
