// Opening a listening socket on "HOST:PORT" ("127.0.0.1:9464", "[::1]:0", ":8081" for every
// address); port 0 picks a free port, and the address it was bound to is read back.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::http {

struct Listener {
  int fd = -1;
  // The bound address as HOST:PORT, IPv6 hosts in brackets: "127.0.0.1:41523".
  std::string host;
  int port = 0;
};

// Listen binds and listens on `address`; a malformed address is invalid input, a bind that
// fails (the port taken, the host not this machine's) is unavailable, each naming the address.
Result<Listener> Listen(const std::string& address);

// ListenHost is the HOST of "HOST:PORT", brackets removed: empty for every address (":8081").
std::string ListenHost(const std::string& address);

// BoundAddress is the listener's HOST:PORT.
std::string BoundAddress(const Listener& listener);

}  // namespace mc::http
