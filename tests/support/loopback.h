// A test's HTTP client on loopback: plain sockets, so that a test can send exactly the bytes
// it means to (a partial request, a huge one, none at all) and read exactly what came back.
#pragma once

#include <chrono>
#include <string>

namespace mc::testing {

// Connect opens a connection to 127.0.0.1:port; -1 when it is refused.
int Connect(int port);

// Exchange sends `request` on a new connection and reads the answer until the server closes
// it or `timeout` passes; "connect failed" when nothing listens.
std::string Exchange(int port, const std::string& request,
                     std::chrono::milliseconds timeout = std::chrono::seconds(5));

// ReadAll reads from `fd` until the other side closes it or `timeout` passes.
std::string ReadAll(int fd, std::chrono::milliseconds timeout);

// StatusLine is the answer's first line: "HTTP/1.1 200 OK".
std::string StatusLine(const std::string& answer);
// Body is what follows the answer's head.
std::string Body(const std::string& answer);
// Header is the value of the named header in the answer's head, empty when absent.
std::string Header(const std::string& answer, const std::string& name);

}  // namespace mc::testing
